import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { WarmSnapshot } from '../../../functions/adapters/kubernetes/warm-snapshot.ts';
import { DISRUPTED_TAINT } from '../../../functions/domain/taints.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import type { Cluster } from '../../../functions/ports/cluster.ts';
import { handleInterruption } from '../../../functions/use-cases/interruption/handle-interruption.ts';
import { type FakeApiServer, kubeConfigFor } from '../../../simulator/api-server/index.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import {
  attributesOf,
  clusterRoleRules,
  controllerRules,
  RBAC_FILES,
  type RequestAttributes,
  readRbacDocuments,
  uncovered,
} from './rbac-rules.ts';
import { NOW, seedNode, seedNodeClaim, seedPod, uidOf, useFakeCluster } from './support.ts';

const fake = useFakeCluster();
const documents = readRbacDocuments();
/** The controller's rules with adoption on: deploy/rbac.yaml's and deploy/rbac-adoption.yaml's. */
const rules = controllerRules(documents);

/**
 * A warm snapshot's requests: the list it starts from, then, after a change, the catch-up
 * watches of nodes and pods (each more than its one-object page).
 */
async function exerciseWarmSnapshot(server: FakeApiServer): Promise<void> {
  const warm = kubernetesClusterFrom(kubeConfigFor(server.url), {
    pageSize: 1,
    warm: new WarmSnapshot(),
  });
  seedNode(server, 'n2');
  await warm.snapshot();
  seedNode(server, 'n3');
  seedPod(server, 'web-3', { nodeName: 'n3' });
  await warm.snapshot();
}

/** Every method of the port once, so the request log holds every kind of request it sends. */
async function exerciseEveryMethod(cluster: Cluster, podUid: string): Promise<void> {
  await cluster.snapshot();
  await cluster.pendingPods();
  await cluster.podsOnNode('n1');
  await cluster.registerNode('n1', {
    labels: { 'karpenter.sh/registered': 'true' },
    annotations: {},
    addTaints: [],
    removeTaints: [],
    finalizers: [TERMINATION_FINALIZER],
  });
  await cluster.removeFinalizer('n1', TERMINATION_FINALIZER);
  await cluster.addFinalizer('n1', TERMINATION_FINALIZER);
  await cluster.patchNodeMetadata('n1', { labels: { 'karpenter.sh/registered': 'true' } });
  await cluster.addTaints('n1', [DISRUPTED_TAINT]);
  await cluster.removeTaints('n1', [DISRUPTED_TAINT]);
  await cluster.cordon('n1');
  await cluster.uncordon('n1');
  await cluster.createEvent({
    involvedObject: { kind: 'Node', name: 'n1' },
    type: 'Normal',
    reason: 'DisruptionTerminating',
    message: 'Disrupting Node: Empty',
  });
  await cluster.evict({ namespace: 'default', name: 'web-1', uid: podUid });
  await cluster.deletePod({ namespace: 'default', name: 'web-2' }, 0);
  await cluster.deleteNode('n1');
  await cluster.karpenterNodeClaims();
  await cluster.releaseKarpenterNodeClaim('default-x7k2p');
}

function key({ apiGroup, resource, verb }: RequestAttributes): string {
  return `${verb} ${apiGroup === '' ? 'core' : apiGroup}/${resource}`;
}

function granted(): string[] {
  return rules.flatMap((rule) =>
    rule.apiGroups.flatMap((apiGroup) =>
      rule.resources.flatMap((resource) =>
        rule.verbs.map((verb) => key({ apiGroup, resource, verb })),
      ),
    ),
  );
}

describe('deploy/rbac.yaml and deploy/rbac-adoption.yaml', () => {
  it('allows every request the adapter sends, and grants nothing it does not send', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedNode(server, 'n1');
    seedNodeClaim(server, 'default-x7k2p');
    const pod = seedPod(server, 'web-1', { nodeName: 'n1' });
    seedPod(server, 'web-2', { nodeName: 'n1' });
    // Act
    await exerciseWarmSnapshot(server);
    await exerciseEveryMethod(cluster, uidOf(pod));
    // Assess
    const sent = server.requests.entries;
    expect(uncovered(rules, sent)).toEqual([]);
    expect(new Set(sent.map((request) => key(attributesOf(request))))).toEqual(new Set(granted()));
  });

  it('uses no wildcard and names no resource instances', () => {
    // Assess
    for (const rule of rules) {
      expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      expect(rule.resourceNames).toBeUndefined();
    }
  });

  it('binds the ClusterRole to the group an EKS access entry maps the functions to', () => {
    // Assess
    const role = documents.find((document) => document.kind === 'ClusterRole');
    const binding = documents.find((document) => document.kind === 'ClusterRoleBinding');
    expect(binding?.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: role?.metadata.name,
    });
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodesmith:controller' },
    ]);
  });

  it('grants adoption in a file of its own, to the controller, leaving deploy/rbac.yaml without NodeClaims', () => {
    // Prepare
    const [controllerFile] = RBAC_FILES;
    const withoutAdoption = readRbacDocuments([controllerFile]);
    // Act
    const adoption = clusterRoleRules(documents, 'nodesmith-adoption');
    const binding = documents.find(
      (d) => d.kind === 'ClusterRoleBinding' && d.metadata.name === 'nodesmith-adoption',
    );
    // Assess
    expect(adoption).toEqual([
      {
        apiGroups: ['karpenter.sh'],
        resources: ['nodeclaims'],
        verbs: ['get', 'list', 'patch', 'delete'],
      },
    ]);
    expect(binding?.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'nodesmith-adoption',
    });
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodesmith:controller' },
    ]);
    expect(withoutAdoption.some((d) => d.metadata.name === 'nodesmith-adoption')).toBe(false);
    const nodeClaimList = { method: 'GET', path: '/apis/karpenter.sh/v1/nodeclaims', query: {} };
    expect(uncovered(clusterRoleRules(withoutAdoption), [nodeClaimList])).toEqual([
      'list karpenter.sh/nodeclaims',
    ]);
  });

  it('lets the API read what its dry run reads, and change nothing', async () => {
    // Prepare
    const reader = clusterRoleRules(documents, 'nodesmith-reader');
    const { server, cluster } = fake();
    seedNode(server, 'n1');
    seedPod(server, 'web-1', { nodeName: 'n1' });
    // Act
    await cluster.snapshot();
    // Assess
    expect(uncovered(reader, server.requests.entries)).toEqual([]);
    expect(new Set(reader.flatMap((rule) => rule.verbs))).toEqual(new Set(['list']));
    const binding = documents.find(
      (d) => d.kind === 'ClusterRoleBinding' && d.metadata.name === 'nodesmith-reader',
    );
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodesmith:reader' },
    ]);
  });

  it('lets the interruption function taint a node and tell it, and nothing more', async () => {
    // Prepare
    const interruption = clusterRoleRules(documents, 'nodesmith-interruption');
    const { server, cluster } = fake();
    const node = 'ip-10-0-1-1.ec2.internal';
    const instanceId = 'i-0b662ef9931388ba0';
    seedNode(server, node, { spec: { providerID: `aws:///us-east-1a/${instanceId}` } });
    const state = makeMemoryStateStore();
    await state.nodeClaims.create({
      ...aNewNodeClaim({ name: 'default-spot1' }),
      phase: 'Initialized',
      instanceId,
      nodeName: node,
      providerID: `aws:///us-east-1a/${instanceId}`,
    });
    // Act
    await handleInterruption(
      { state, cluster, waker: { wake: async () => {} }, clock: { now: () => NOW } },
      {
        id: '1e5527d7-bb36-4607-3370-4164db56a40e',
        time: NOW.toISOString(),
        kind: 'SpotInterruption',
        instanceIds: [instanceId],
      },
    );
    // Assess
    const sent = server.requests.entries;
    expect(uncovered(interruption, sent)).toEqual([]);
    const grantedToInterruption = interruption.flatMap((rule) =>
      rule.resources.flatMap((resource) =>
        rule.verbs.map((verb) => key({ apiGroup: '', resource, verb })),
      ),
    );
    expect(new Set(sent.map((request) => key(attributesOf(request))))).toEqual(
      new Set(grantedToInterruption),
    );
    const binding = documents.find(
      (d) => d.kind === 'ClusterRoleBinding' && d.metadata.name === 'nodesmith-interruption',
    );
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodesmith:interruption' },
    ]);
  });

  it('reports requests no rule allows', () => {
    // Prepare
    const reads: { method: string; path: string; query: Record<string, string> }[] = [
      { method: 'GET', path: '/api/v1/namespaces/default/pods/web-1', query: {} },
      { method: 'GET', path: '/apis/apps/v1/daemonsets', query: { watch: 'true' } },
      { method: 'PUT', path: '/apis/apps/v1/namespaces/kube-system/daemonsets/agent', query: {} },
      { method: 'GET', path: '/api/v1/namespaces/default', query: {} },
    ];
    // Act
    const missing = uncovered(rules, reads);
    // Assess
    expect(missing).toEqual([
      'get core/pods',
      'watch apps/daemonsets',
      'update apps/daemonsets',
      'get core/namespaces',
    ]);
  });
});
