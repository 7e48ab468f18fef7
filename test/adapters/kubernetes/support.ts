/**
 * A fresh fake API server and the adapter on top of it for every test, plus seeds written
 * straight into the server's store (so the request log holds only what the adapter sent).
 * After every test, each logged request is checked against deploy/rbac.yaml and
 * deploy/rbac-adoption.yaml: whatever the adapter's tests make it send, the controller's
 * ClusterRoles must allow.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import {
  type KubernetesClusterOptions,
  kubernetesClusterFrom,
} from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import type { Cluster } from '../../../functions/ports/cluster.ts';
import {
  type FakeApiServer,
  type FakeApiServerOptions,
  type JsonObject,
  kubeConfigFor,
  startFakeApiServer,
} from '../../../simulator/api-server/index.ts';
import { controllerRules, readRbacDocuments, uncovered } from './rbac-rules.ts';

export const NOW = new Date('2025-06-01T12:00:00Z');

export interface FakeCluster {
  readonly server: FakeApiServer;
  readonly cluster: Cluster;
}

/**
 * Registers the hooks and returns a getter for the current test's server and cluster.
 *
 * @example
 * const fake = useFakeCluster({ pageSize: 2 });
 * it('…', async () => { const { server, cluster } = fake(); … });
 */
export function useFakeCluster(
  options: KubernetesClusterOptions = {},
  serverOptions: Omit<FakeApiServerOptions, 'now'> = {},
): () => FakeCluster {
  let current: FakeCluster | undefined;
  const rules = controllerRules(readRbacDocuments());
  beforeEach(async () => {
    const server = await startFakeApiServer({ ...serverOptions, now: () => NOW });
    const cluster = kubernetesClusterFrom(kubeConfigFor(server.url), {
      now: () => NOW,
      ...options,
    });
    current = { server, cluster };
  });
  afterEach(async () => {
    const server = current?.server;
    current = undefined;
    if (server !== undefined) await closeAllowed(server, rules);
  });
  return () => {
    if (current === undefined) throw new Error('useFakeCluster: no test is running');
    return current;
  };
}

/**
 * Closes the server, then checks every request it answered against the controller's ClusterRoles:
 * whatever the adapter's tests make it send, deploy/rbac.yaml and deploy/rbac-adoption.yaml allow.
 */
export async function closeAllowed(
  server: FakeApiServer,
  rules = controllerRules(readRbacDocuments()),
): Promise<void> {
  await server.close();
  expect(
    uncovered(rules, server.requests.entries),
    'requests deploy/rbac.yaml and deploy/rbac-adoption.yaml do not allow',
  ).toEqual([]);
}

/** A registered, Ready node, as a kubelet leaves it. */
export function seedNode(server: FakeApiServer, name: string, extra: JsonObject = {}): JsonObject {
  const { metadata = {}, spec = {}, status = {} } = extra as Record<string, JsonObject>;
  return server.store.create('nodes', {
    metadata: {
      ...metadata,
      name,
      labels: { 'kubernetes.io/hostname': name, ...(metadata.labels as JsonObject | undefined) },
    },
    spec: { providerID: `aws:///us-east-1a/i-${name}`, ...spec },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
      ...status,
    },
  });
}

/**
 * A launched NodeClaim as Karpenter leaves it: its NodePool's label, its termination finalizer,
 * requirements, the EC2NodeClass it references, and the instance and node it resolved to.
 */
export function seedNodeClaim(
  server: FakeApiServer,
  name: string,
  extra: JsonObject = {},
): JsonObject {
  const { metadata = {}, spec = {}, status = {} } = extra as Record<string, JsonObject>;
  return server.store.create('nodeclaims', {
    metadata: {
      labels: { 'karpenter.sh/nodepool': 'default' },
      finalizers: ['karpenter.sh/termination'],
      ...metadata,
      name,
    },
    spec: {
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] },
      ],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      expireAfter: '720h',
      ...spec,
    },
    status: {
      providerID: `aws:///us-east-1a/i-${name}`,
      nodeName: `ip-${name}.ec2.internal`,
      capacity: { cpu: '2', memory: '8Gi', pods: '29' },
      allocatable: { cpu: '1930m', memory: '7Gi', pods: '29' },
      ...status,
    },
  });
}

export interface PodSeed {
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly nodeName?: string;
  readonly phase?: string;
  readonly cpu?: string;
  readonly conditions?: JsonObject[];
  readonly ready?: boolean;
}

function podStatus(seed: PodSeed): JsonObject {
  const bound = seed.nodeName !== undefined;
  const conditions = seed.conditions ?? [
    ...(bound ? [{ type: 'PodScheduled', status: 'True' }] : []),
    ...(bound ? [{ type: 'Ready', status: seed.ready === false ? 'False' : 'True' }] : []),
  ];
  return { phase: seed.phase ?? (bound ? 'Running' : 'Pending'), conditions };
}

export function seedPod(server: FakeApiServer, name: string, seed: PodSeed = {}): JsonObject {
  return server.store.create('pods', {
    metadata: { name, namespace: seed.namespace ?? 'default', labels: { ...seed.labels } },
    spec: {
      ...(seed.nodeName === undefined ? {} : { nodeName: seed.nodeName }),
      containers: [
        {
          name: 'app',
          image: 'registry.example/app:1',
          resources: { requests: { cpu: seed.cpu ?? '100m' } },
        },
      ],
      terminationGracePeriodSeconds: 30,
    },
    status: podStatus(seed),
  });
}

/** kube-scheduler's verdict on a pod no node fits. */
export const UNSCHEDULABLE: JsonObject = {
  type: 'PodScheduled',
  status: 'False',
  reason: 'Unschedulable',
  message: '0/3 nodes are available: 3 Insufficient cpu.',
};

export function uidOf(object: JsonObject): string {
  const uid = (object.metadata as JsonObject | undefined)?.uid;
  if (typeof uid !== 'string') throw new Error('seeded object has no uid');
  return uid;
}

export function resourceVersionOf(object: JsonObject): string {
  const version = (object.metadata as JsonObject | undefined)?.resourceVersion;
  if (typeof version !== 'string') throw new Error('object has no resourceVersion');
  return version;
}
