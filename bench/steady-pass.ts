/**
 * What a controller pass costs when nothing needs doing — the tick of a quiet cluster, and the
 * figure the running cost is computed from (README, "What it costs to run"). A cluster of N
 * initialized nodes of the `burst` scenario's pool, ten running pods each, no pending pod: the
 * pass takes the lease, reads the state on DynamoDB Local and the cluster over HTTP, lists the
 * instances (200 ms, as EC2's DescribeInstances), finds nothing to launch, weighs every node for
 * disruption, and releases the lease. Measured from the SQS event to the handler's return.
 */

import { nodeClassHash } from '../functions/domain/disruption/node-class-hash.ts';
import { templateHash } from '../functions/domain/disruption/template-hash.ts';
import type { EC2NodeClass } from '../functions/domain/node-class.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { NewNodeClaimRecord } from '../functions/domain/state/node-claim-record.ts';
import type { CloudProvider, ManagedInstance } from '../functions/ports/cloud-provider.ts';
import type { StateStore } from '../functions/ports/state-store.ts';
import type { PassReport } from '../functions/use-cases/controller/pass-report.ts';
import { type FakeApiServer, startFakeApiServer } from '../simulator/api-server/server.ts';
import { lambdaContext, sqsEvent } from '../simulator/run/lambda-events.ts';
import { burstScenario } from '../simulator/scenarios/burst.ts';
import { EC2_LATENCY_MS, localPass, passHandler, withDynamoDbLocal } from './local-pass.ts';
import { median } from './median.ts';

const PODS_PER_NODE = 10;
const TYPE = 'm6i.2xlarge';
const PRICE = 0.384;
const LAUNCHED = '2026-11-20T09:00:00.000Z';

interface Seeded {
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

async function onePass(endpoint: string, nodeCount: number, run: number): Promise<number> {
  const scenario = burstScenario(1, 1);
  const tables = {
    state: `steady-${nodeCount}-${run}`,
    nodeClaims: `steady-claims-${nodeCount}-${run}`,
  };
  const pass = await localPass(endpoint, tables, scenario);
  const { state, cloud: simulated, sleep } = pass;
  const pool = (await state.nodePools.get('general'))?.document as NodePool;
  const nodeClass = (await state.nodeClasses.get('default'))?.document as EC2NodeClass;
  const image = (await simulated.resolveNodeClass(nodeClass)).amis[0]?.id ?? '';
  const nodes = Array.from({ length: nodeCount }, (_, i) => seededNode(i, scenario.zones));
  await seedClaims(
    state,
    nodes,
    { nodePoolHash: templateHash(pool), nodeClassHash: nodeClassHash(nodeClass) },
    image,
  );
  const server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
  seedCluster(server, nodes);
  const cloud: CloudProvider = {
    resolveNodeClass: (c) => simulated.resolveNodeClass(c),
    instanceTypes: (c, o) => simulated.instanceTypes(c, o),
    prices: () => simulated.prices(),
    launch: () => Promise.reject(new Error('a quiet pass launches nothing')),
    terminate: () => Promise.reject(new Error('a quiet pass terminates nothing')),
    listManaged: async () => {
      await sleep(EC2_LATENCY_MS);
      return nodes.map((n) => n.instance);
    },
    describe: async () => [],
    claimOwnership: () => Promise.reject(new Error('a quiet pass tags nothing')),
    instanceStatuses: async () => {
      await sleep(EC2_LATENCY_MS);
      return [];
    },
  };
  let report: PassReport | undefined;
  const handler = passHandler(pass, {
    serverUrl: server.url,
    cloud,
    region: scenario.region,
    newClaimName: (p) => `${p}-new`,
    onReport: (r) => {
      report = r;
    },
  });
  const event = sqsEvent([{ wake: { source: 'schedule', reason: 'tick' }, dueAt: 0, id: 1 }]);
  // The first pass records the pods it sees on each claim; the ticks after it are the quiet ones.
  await handler(event, lambdaContext(`steady-${run}-first`));
  const start = performance.now();
  const response = await handler(event, lambdaContext(`steady-${run}`));
  const elapsed = performance.now() - start;
  if (response.batchItemFailures.length > 0) throw new Error('the quiet pass failed');
  const did = [
    ...(report?.lifecycle ?? []).map((r) => `${r.kind} ${r.claim}`),
    ...(report?.launches ?? []).map((l) => `launch ${l.claim.name}`),
  ];
  if (did.length > 0)
    throw new Error(`the quiet pass was not quiet: ${did.slice(0, 5).join(', ')}`);
  await server.close();
  pass.client.destroy();
  return elapsed;
}

export function benchSteadyPass(sizes = [0, 100, 1000], runs = 3): Promise<void> {
  return withDynamoDbLocal(async (endpoint) => {
    console.log(
      `\nquiet controller pass (nothing to do), DynamoDB Local, ${EC2_LATENCY_MS} ms DescribeInstances (median of ${runs})`,
    );
    console.log('| nodes | pods | pass |');
    console.log('|---:|---:|---:|');
    for (const size of sizes) {
      const times: number[] = [];
      for (let run = 1; run <= runs; run++) times.push(await onePass(endpoint, size, run));
      console.log(`| ${size} | ${size * PODS_PER_NODE} | ${Math.round(median(times))} ms |`);
    }
  });
}
