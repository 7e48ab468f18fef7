/**
 * The consolidation budget of docs/design.md §7.1: one disruption decision over 1,000 nodes and
 * 10,000 pods on the full catalog, "in seconds, not minutes". Two clusters: an underused one, where
 * the first consolidation is found quickly, and a packed one, where nothing can go and every node
 * is simulated before the answer is "nothing"; each timed as the controller decides (first
 * command) and as `nodesmith disruption` explains (every node).
 */

import { planDisruption } from '../functions/domain/disruption/disruption-plan.ts';
import type { InstanceType } from '../functions/domain/instance-type.ts';
import { Label } from '../functions/domain/labels.ts';
import type { Node } from '../functions/domain/node.ts';
import type { NodeClaim } from '../functions/domain/node-claim.ts';
import type { NodePool } from '../functions/domain/node-pool.ts';
import type { Pod } from '../functions/domain/pod.ts';
import { parseResources } from '../functions/domain/resources.ts';
import { cronSchedules } from '../functions/use-cases/disruption/cron-schedules.ts';
import { median } from './median.ts';

const NODES = 1000;
const PODS_PER_NODE = 10;
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const NOW_MS = Date.parse('2026-06-01T12:00:00Z');
const CREATED = '2026-05-30T12:00:00Z';

function managedNode(i: number): { node: Node; claim: NodeClaim } {
  const name = `ip-10-1-${Math.floor(i / 250)}-${i % 250}.ec2.internal`;
  const zone = ZONES[i % ZONES.length] as string;
  const labels = {
    [Label.nodePool]: 'default',
    [Label.instanceType]: 'm5.2xlarge',
    [Label.zone]: zone,
    [Label.capacityType]: 'on-demand',
    [Label.arch]: 'amd64',
    [Label.os]: 'linux',
    [Label.hostname]: name,
    [Label.initialized]: 'true',
  };
  const allocatable = parseResources({ cpu: '7910m', memory: '29317Mi', pods: '58' });
  const providerID = `aws:///${zone}/i-${i.toString(16).padStart(17, '0')}`;
  const node: Node = {
    name,
    labels,
    annotations: {},
    taints: [],
    unschedulable: false,
    providerID,
    capacity: allocatable,
    allocatable,
    ready: true,
    deleting: false,
    creationTimestamp: CREATED,
  };
  const claim: NodeClaim = {
    metadata: { name: `default-${i}`, labels, creationTimestamp: CREATED },
    spec: {
      requirements: [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    },
    status: { nodeName: name, providerID },
  };
  return { node, claim };
}

function podOn(node: string, index: number, cpuMillis: number): Pod {
  const app = `app-${index % 40}`;
  return {
    uid: `${node}-${index}`,
    namespace: 'default',
    name: `${app}-${node}-${index}`,
    labels: { app },
    annotations: {},
    creationTimestamp: '2026-05-31T00:00:00Z',
    ownerKind: 'ReplicaSet',
    deleting: false,
    phase: 'Running',
    nodeName: node,
    spec: {
      containers: [
        { name: 'app', requests: parseResources({ cpu: `${cpuMillis}m`, memory: '1Gi' }) },
      ],
      initContainers: [],
      tolerations: [],
      topologySpreadConstraints: [],
      volumes: [],
    },
  };
}

function cluster(podCpuMillis: (i: number) => number) {
  const managed = Array.from({ length: NODES }, (_, i) => managedNode(i));
  const pods = managed.flatMap(({ node }, i) =>
    Array.from({ length: PODS_PER_NODE }, (_, j) => podOn(node.name, j, podCpuMillis(i * 10 + j))),
  );
  return { managed, pods };
}

const POOL: NodePool = {
  metadata: { name: 'default' },
  spec: {
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', budgets: [{ nodes: '10%' }] },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: Label.capacityType, operator: 'In', values: ['on-demand'] },
          { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
        ],
      },
    },
  },
};

function decide(types: readonly InstanceType[], podCpu: (i: number) => number, explain: boolean) {
  const { managed, pods } = cluster(podCpu);
  const input = {
    pods,
    nodes: managed.map((m) => m.node),
    nodeClaims: managed.map((m) => m.claim),
    nodePools: [POOL],
    instanceTypes: new Map([['default', types]]),
    daemonSets: [],
    podDisruptionBudgets: [],
    nowMs: NOW_MS,
    cron: cronSchedules,
    explain,
  };
  const times: number[] = [];
  let summary = '';
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    const plan = planDisruption(input);
    times.push(performance.now() - start);
    const taken = plan.decisions.flatMap((d) => d.nodes).length;
    summary = `${plan.decisions.map((d) => d.method).join(', ') || 'none'} (${taken} nodes), ${plan.staying.length} staying`;
  }
  return { ms: median(times), summary };
}

export function benchConsolidation(types: readonly InstanceType[]): void {
  console.log('\nconsolidation decision: 1,000 m5.2xlarge nodes, 10,000 pods, median of 3');
  console.log('| cluster | mode | decision ms | result |');
  console.log('|---|---|---:|---|');
  const clusters = [
    { name: 'underused (pods 300-600m)', cpu: (i: number) => 300 + (i % 4) * 100 },
    { name: 'packed (pods 780m)', cpu: () => 780 },
  ];
  for (const c of clusters) {
    for (const explain of [false, true]) {
      const { ms, summary } = decide(types, c.cpu, explain);
      const mode = explain ? 'explain every node' : 'controller';
      console.log(`| ${c.name} | ${mode} | ${ms.toFixed(0)} | ${summary} |`);
    }
  }
}
