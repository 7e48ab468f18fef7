/**
 * `takeover`: Nodesmith starts on a cluster Karpenter ran until now, beside a managed node
 * group. Three on-demand Karpenter nodes of a NodePool named like Nodesmith's (`general`), with
 * their NodeClaims, and two node-group nodes run pods; then the `burst` arrives, and once it has
 * settled the legacy workload scales down. Nodesmith must launch its own nodes for the burst and
 * leave every instance it did not launch alone: not an orphan, not consolidated, not drained.
 * With adoption on (`--adopt-karpenter-nodes`) the Karpenter nodes become Nodesmith's and are
 * consolidated like its own, through the usual drain (the pool allows spot, so a cheaper spot
 * node may replace one); the node group's are never touched.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { ForeignInstance } from '../cloud/simulated-cloud.ts';
import { burstScenario } from './burst.ts';
import { nodeClaimOfNode } from './existing-node-claims.ts';
import type { Scenario, SeededObject } from './scenario.ts';

const TYPE = 'm7g.xlarge';
const ALLOCATABLE = { cpu: '3920m', memory: '14Gi', pods: '58' };

interface Existing extends ForeignInstance {
  readonly node: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Pods running there: name and cpu. */
  readonly pods: readonly (readonly [string, string])[];
}

function karpenterNode(i: number, zone: string, pods: Existing['pods']): Existing {
  const nodeClaim = `general-k${i}x7q`;
  return {
    instanceId: `i-0ca0000000000000${i}`,
    instanceType: TYPE,
    zone,
    capacityType: 'on-demand',
    origin: 'karpenter',
    nodeClaim,
    nodePool: 'general',
    nodeClass: 'default',
    node: `ip-10-1-0-${i}.ec2.internal`,
    labels: {
      'karpenter.sh/nodepool': 'general',
      // The pool's template label: the same NodePool launched these nodes.
      team: 'platform',
      'karpenter.sh/registered': 'true',
      'karpenter.sh/initialized': 'true',
      'karpenter.sh/capacity-type': 'on-demand',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
    },
    pods,
  };
}

function nodeGroupNode(i: number, zone: string, pods: Existing['pods']): Existing {
  return {
    instanceId: `i-0eb0000000000000${i}`,
    instanceType: TYPE,
    zone,
    capacityType: 'on-demand',
    origin: 'node-group',
    node: `ip-10-2-0-${i}.ec2.internal`,
    labels: {
      'eks.amazonaws.com/nodegroup': 'system',
      'eks.amazonaws.com/capacityType': 'ON_DEMAND',
    },
    pods,
  };
}

const EXISTING: readonly Existing[] = [
  karpenterNode(1, 'us-east-1a', [
    ['legacy-api-1', '1500m'],
    ['legacy-api-2', '1500m'],
  ]),
  karpenterNode(2, 'us-east-1b', [
    ['legacy-api-3', '1500m'],
    ['legacy-api-4', '1'],
  ]),
  // Full, so the burst finds no room on it; nearly empty once legacy-api scales down.
  karpenterNode(3, 'us-east-1c', [
    ['legacy-api-5', '1500m'],
    ['legacy-api-6', '1'],
    ['legacy-api-7', '1'],
  ]),
  nodeGroupNode(1, 'us-east-1a', [['coredns-1', '100m']]),
  nodeGroupNode(2, 'us-east-1b', [['coredns-2', '100m']]),
];

// Three days before the run starts: well inside the pool's expireAfter.
const CREATED = '2026-01-02T09:00:00Z';

function nodeObject(existing: Existing): JsonObject {
  const karpenters = existing.origin === 'karpenter';
  return {
    metadata: {
      name: existing.node,
      labels: {
        ...existing.labels,
        'kubernetes.io/hostname': existing.node,
        'kubernetes.io/arch': 'arm64',
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': existing.instanceType,
        'topology.kubernetes.io/zone': existing.zone,
        'topology.kubernetes.io/region': 'us-east-1',
      },
      creationTimestamp: CREATED,
      // Karpenter's finalizer stays on its nodes: only a Karpenter (or adoption) removes it.
      ...(karpenters
        ? {
            finalizers: ['karpenter.sh/termination'],
            ownerReferences: [
              { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', name: existing.nodeClaim ?? '' },
            ],
          }
        : {}),
    },
    spec: { providerID: `aws:///${existing.zone}/${existing.instanceId}` },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '58' },
      allocatable: ALLOCATABLE,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

function podObject(existing: Existing, [name, cpu]: readonly [string, string]): JsonObject {
  const system = existing.origin === 'node-group';
  return {
    metadata: {
      name,
      namespace: system ? 'kube-system' : 'shop',
      labels: { app: system ? 'coredns' : 'legacy-api' },
      // A Deployment's pods: drained ones come back elsewhere.
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: system ? 'coredns-5d78c9869d' : 'legacy-api-7c9f6d',
          uid: system
            ? '9d3c1a50-0000-4000-8000-000000000002'
            : '9d3c1a50-0000-4000-8000-000000000003',
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: existing.node,
      containers: [
        {
          name: 'app',
          image: 'app',
          resources: { requests: { cpu, memory: system ? '170Mi' : '3Gi' } },
        },
      ],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function seeded(existing: readonly Existing[]): SeededObject[] {
  return [
    ...existing.map((e) => ({ resource: 'nodes' as const, object: nodeObject(e) })),
    ...existing
      .filter((e) => e.origin === 'karpenter')
      .map((e) => ({
        resource: 'nodeclaims' as const,
        object: nodeClaimOfNode(nodeObject(e), e.nodePool ?? ''),
      })),
    ...existing.flatMap((e) =>
      e.pods.map((p) => ({ resource: 'pods' as const, object: podObject(e, p) })),
    ),
  ];
}

/** The burst has settled by then. */
const AFTER_BURST = 240;

/** Two legacy replicas go, leaving the third Karpenter node one. */
const SCALED_DOWN = ['shop/legacy-api-6', 'shop/legacy-api-7'];

export function takeoverScenario(seed: number, pods = 120): Scenario {
  const burst = burstScenario(seed, pods);
  return {
    ...burst,
    name: 'takeover',
    steps: [
      ...burst.steps,
      {
        at: AFTER_BURST,
        description: `legacy-api scaled down by ${SCALED_DOWN.length} replicas`,
        pods: [],
        removePods: SCALED_DOWN,
      },
    ],
    instances: EXISTING.map(
      ({ node: _node, labels: _labels, pods: _pods, ...instance }) => instance,
    ),
    cluster: seeded(EXISTING),
    maxSeconds: 1800,
    // Long enough for consolidateAfter and validation to pass over the nearly empty node.
    quietSeconds: 600,
  };
}
