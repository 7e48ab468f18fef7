/**
 * A running cluster for the controller benches: N initialized nodes of the `burst` scenario's
 * pool with ten running pods each (700m, 2 GiB on m6i.2xlarge: most of each node's CPU), their
 * claims on DynamoDB Local, their instances as EC2 would list them, and the simulated API server
 * holding nodes and pods, read over HTTP.
 */

import { nodeClassHash } from '../functions/domain/disruption/node-class-hash.ts';
import { templateHash } from '../functions/domain/disruption/template-hash.ts';
import type { EC2NodeClass } from '../functions/domain/node-class.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { NewNodeClaimRecord } from '../functions/domain/state/node-claim-record.ts';
import type { ManagedInstance } from '../functions/ports/cloud-provider.ts';
import type { StateStore } from '../functions/ports/state-store.ts';
import { type FakeApiServer, startFakeApiServer } from '../simulator/api-server/server.ts';
import { burstScenario } from '../simulator/scenarios/burst.ts';
import type { Scenario } from '../simulator/scenarios/scenario.ts';
import { type LocalPass, localPass } from './local-pass.ts';

export const PODS_PER_NODE = 10;
const TYPE = 'm6i.2xlarge';
const PRICE = 0.384;
const LAUNCHED = '2026-11-20T09:00:00.000Z';

export interface Seeded {
  readonly name: string;
  readonly node: string;
  readonly instance: ManagedInstance;
}

function seededNode(i: number, zones: readonly string[]): Seeded {
  const zone = zones[i % zones.length] ?? 'us-east-1a';
  const instanceId = `i-${(0x1000000 + i).toString(16).padStart(17, '0')}`;
  return {
    name: `general-${i.toString(36).padStart(5, '0')}`,
    node: `ip-10-${Math.floor(i / 250)}-${i % 250}-1.ec2.internal`,
    instance: {
      instanceId,
      providerID: `aws:///${zone}/${instanceId}`,
      instanceType: TYPE,
      zone,
      capacityType: 'on-demand',
      owned: true,
      launchTime: LAUNCHED,
      state: 'running',
      nodeClaim: `general-${i.toString(36).padStart(5, '0')}`,
      nodePool: 'general',
      nodeClass: 'default',
    },
  };
}

function labelsOf(s: Seeded): Record<string, string> {
  return {
    'karpenter.sh/nodepool': 'general',
    'karpenter.sh/capacity-type': 'on-demand',
    'karpenter.sh/initialized': 'true',
    'karpenter.sh/registered': 'true',
    'karpenter.k8s.aws/ec2nodeclass': 'default',
    'karpenter.k8s.aws/instance-category': 'm',
    'karpenter.k8s.aws/instance-generation': '6',
    'node.kubernetes.io/instance-type': TYPE,
    'topology.kubernetes.io/zone': s.instance.zone,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'kubernetes.io/hostname': s.node,
    team: 'platform',
  };
}

function seedCluster(server: FakeApiServer, nodes: readonly Seeded[]): void {
  const allocatable = { cpu: '7910m', memory: '30310Mi', pods: '58', 'ephemeral-storage': '18Gi' };
  for (const s of nodes) {
    server.store.create('nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: s.node, labels: labelsOf(s), creationTimestamp: LAUNCHED },
      spec: { providerID: s.instance.providerID },
      status: {
        capacity: allocatable,
        allocatable,
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    for (let p = 0; p < PODS_PER_NODE; p++) {
      server.store.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${s.name}-app-${p}`,
          namespace: 'shop',
          uid: `${s.name}-${p}`,
          creationTimestamp: LAUNCHED,
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app', uid: 'rs', controller: true },
          ],
        },
        spec: {
          nodeName: s.node,
          containers: [
            { name: 'app', image: 'app', resources: { requests: { cpu: '700m', memory: '2Gi' } } },
          ],
        },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
    }
  }
}

async function seedClaims(
  state: StateStore,
  nodes: readonly Seeded[],
  hashes: Pick<NewNodeClaimRecord, 'nodePoolHash' | 'nodeClassHash'>,
  imageId: string,
): Promise<void> {
  for (const s of nodes) {
    const claim: NewNodeClaimRecord = {
      name: s.name,
      nodePool: 'general',
      nodeClass: 'default',
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [TYPE] }],
      instanceTypeOptions: [TYPE],
      offering: {
        instanceType: TYPE,
        zone: s.instance.zone,
        capacityType: 'on-demand',
        pricePerHour: PRICE,
      },
      labels: labelsOf(s),
      capacity: { cpu: 8000, memory: 32 * 1024 ** 3, pods: 58 },
      allocatable: { cpu: 7910, memory: 30310 * 1024 ** 2, pods: 58 },
      instanceId: s.instance.instanceId,
      providerID: s.instance.providerID,
      imageId,
      nodeName: s.node,
      ...hashes,
      phase: 'Initialized',
      timestamps: {
        Pending: LAUNCHED,
        Launched: LAUNCHED,
        Registered: LAUNCHED,
        Initialized: LAUNCHED,
      },
    };
    await state.nodeClaims.create(claim);
  }
}

export interface SeededCluster {
  readonly pass: LocalPass;
  readonly server: FakeApiServer;
  readonly scenario: Scenario;
  /** The instances of the seeded nodes, as DescribeInstances lists them. */
  readonly instances: readonly ManagedInstance[];
  /**
   * From now on, each node's kubelet reports its status every five minutes (the kubelet's
   * `nodeStatusReportFrequency`), spread over the nodes: a running cluster's nodes change
   * about N/300 times a second even when nothing happens.
   */
  reportNodeStatus(): void;
  close(): Promise<void>;
}

/**
 * The `burst` scenario with its pool's `consolidateAfter` past the end of any run. The seeded
 * nodes are on-demand where the pool allows spot, so consolidation would replace them, a tenth
 * at a time, once the pool's 1m has passed since a pass first saw their pods: setting up 10,000
 * nodes takes longer than that on a busy machine, and no pass after it would be quiet.
 */
function seededScenario(): Scenario {
  const scenario = burstScenario(1, 1);
  const manifests = scenario.manifests.map((m) => ({
    ...m,
    text: m.text.replace('consolidateAfter: 1m', 'consolidateAfter: 30m'),
  }));
  if (manifests.every((m, i) => m.text === scenario.manifests[i]?.text)) {
    throw new Error("the burst scenario's pool no longer says consolidateAfter: 1m");
  }
  return { ...scenario, manifests };
}

/** The kubelet's `nodeStatusReportFrequency`. */
const NODE_STATUS_REPORT_MS = 5 * 60_000;

/** Starts the kubelets' status reports; returns the stop function. */
function nodeStatusReports(server: FakeApiServer, nodes: readonly Seeded[]): () => void {
  let next = 0;
  const timer = setInterval(
    () => {
      const name = nodes[next % nodes.length]?.node ?? '';
      next += 1;
      const node = server.store.get('nodes', name);
      if (node === undefined) return;
      const lastHeartbeatTime = new Date().toISOString();
      const conditions = [{ type: 'Ready', status: 'True', lastHeartbeatTime }];
      server.store.update('nodes', { ...node, status: { ...(node.status as object), conditions } });
    },
    Math.max(1, NODE_STATUS_REPORT_MS / Math.max(1, nodes.length)),
  );
  return () => clearInterval(timer);
}

/** Fresh tables and a fresh API server holding `nodeCount` busy nodes of the `burst` pool. */
export async function seededCluster(
  endpoint: string,
  nodeCount: number,
  name: string,
): Promise<SeededCluster> {
  const scenario = seededScenario();
  const tables = { state: `${name}-state`, nodeClaims: `${name}-claims` };
  const pass = await localPass(endpoint, tables, scenario);
  const { state, cloud } = pass;
  const pool = (await state.nodePools.get('general'))?.document as NodePool;
  const nodeClass = (await state.nodeClasses.get('default'))?.document as EC2NodeClass;
  const image = (await cloud.resolveNodeClass(nodeClass)).amis[0]?.id ?? '';
  const nodes = Array.from({ length: nodeCount }, (_, i) => seededNode(i, scenario.zones));
  const hashes = { nodePoolHash: templateHash(pool), nodeClassHash: nodeClassHash(nodeClass) };
  await seedClaims(state, nodes, hashes, image);
  const server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
  seedCluster(server, nodes);
  let stopReports: () => void = () => {};
  return {
    pass,
    server,
    scenario,
    instances: nodes.map((n) => n.instance),
    reportNodeStatus: () => {
      stopReports = nodeStatusReports(server, nodes);
    },
    close: async () => {
      stopReports();
      await server.close();
      pass.client.destroy();
    },
  };
}
