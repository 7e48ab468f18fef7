/**
 * A running cluster for the controller benches: N initialized nodes of the `burst` scenario's
 * pool with ten running pods each (700m, 2 GiB on m6i.2xlarge: most of each node's CPU), their
 * claims on DynamoDB Local, their instances as EC2 would list them, and the simulated API server
 * holding nodes and pods, read over HTTP from a thread of its own.
 */

import { nodeClassHash } from '../functions/domain/disruption/node-class-hash.ts';
import { templateHash } from '../functions/domain/disruption/template-hash.ts';
import type { EC2NodeClass } from '../functions/domain/node-class.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { NewNodeClaimRecord } from '../functions/domain/state/node-claim-record.ts';
import type { ManagedInstance } from '../functions/ports/cloud-provider.ts';
import type { StateStore } from '../functions/ports/state-store.ts';
import type { JsonObject } from '../simulator/api-server/json.ts';
import type { ResourceName } from '../simulator/api-server/resource-names.ts';
import { burstScenario } from '../simulator/scenarios/burst.ts';
import type { Scenario } from '../simulator/scenarios/scenario.ts';
import { ClusterThread } from './cluster-thread.ts';
import { type LocalPass, localPass } from './local-pass.ts';
import { LAUNCHED, labelsOf, PRICE, type Seeded, seededNodes, TYPE } from './seeded-nodes.ts';

export { PODS_PER_NODE } from './seeded-nodes.ts';

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
  /** The API server's URL, served on a thread of its own (bench/cluster-thread.ts). */
  readonly url: string;
  readonly scenario: Scenario;
  /** The instances of the seeded nodes, as DescribeInstances lists them. */
  readonly instances: readonly ManagedInstance[];
  /**
   * From now on, each node's kubelet reports its status every five minutes (the kubelet's
   * `nodeStatusReportFrequency`), spread over the nodes: a running cluster's nodes change
   * about N/300 times a second even when nothing happens.
   */
  reportNodeStatus(): Promise<void>;
  /** Stores the objects as they are (no admission), in order; resolves once stored. */
  create(resource: ResourceName, objects: readonly JsonObject[]): Promise<void>;
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
  const nodes = seededNodes(nodeCount, scenario.zones);
  const hashes = { nodePoolHash: templateHash(pool), nodeClassHash: nodeClassHash(nodeClass) };
  await seedClaims(state, nodes, hashes, image);
  const { thread, url } = await ClusterThread.start({ nodes: nodeCount, zones: scenario.zones });
  return {
    pass,
    url,
    scenario,
    instances: nodes.map((n) => n.instance),
    create: (resource, objects) => thread.ask({ op: 'create', resource, objects }),
    reportNodeStatus: () => thread.ask({ op: 'reportNodeStatus' }),
    close: async () => {
      await thread.ask({ op: 'close' });
      pass.client.destroy();
    },
  };
}
