/**
 * The nodes of the controller benches' running cluster (bench/seeded-cluster.ts): N initialized
 * m6i.2xlarge nodes of the `burst` scenario's pool, each with its instance as EC2 lists it, the
 * Node object its kubelet registered and its ten running pods (700m, 2 GiB: most of the node's
 * CPU). The same N nodes every time, so the cluster's thread and its claims agree.
 */

import type { ManagedInstance } from '../functions/ports/cloud-provider.ts';
import type { JsonObject } from '../simulator/api-server/json.ts';

export const PODS_PER_NODE = 10;
export const TYPE = 'm6i.2xlarge';
export const PRICE = 0.384;
export const LAUNCHED = '2026-11-20T09:00:00.000Z';

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

export function labelsOf(s: Seeded): Record<string, string> {
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

/** The seeded cluster's nodes, `count` of them spread over the zones. */
export function seededNodes(count: number, zones: readonly string[]): Seeded[] {
  return Array.from({ length: count }, (_, i) => seededNode(i, zones));
}

const ALLOCATABLE = { cpu: '7910m', memory: '30310Mi', pods: '58', 'ephemeral-storage': '18Gi' };

/** The Node its kubelet registered: Ready, labelled as Nodesmith launched it. */
export function nodeObject(s: Seeded): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: s.node, labels: labelsOf(s), creationTimestamp: LAUNCHED },
    spec: { providerID: s.instance.providerID },
    status: {
      capacity: ALLOCATABLE,
      allocatable: ALLOCATABLE,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** The node's ten running pods of one ReplicaSet. */
export function podObjects(s: Seeded): JsonObject[] {
  return Array.from({ length: PODS_PER_NODE }, (_, p) => ({
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
  }));
}
