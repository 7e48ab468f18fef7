import { describe, expect, it } from 'vitest';
import { seedNode, seedPod, UNSCHEDULABLE, useFakeCluster } from './support.ts';

const PAGE_SIZE = 2;
const fake = useFakeCluster({ pageSize: PAGE_SIZE });

/** Two healthy pods and `maxUnavailable: 1`: one may go. */
const WEB_BUDGET_STATUS = {
  disruptionsAllowed: 1,
  currentHealthy: 2,
  desiredHealthy: 1,
  expectedPods: 2,
};
/** A budget selecting no pods has nothing to protect and allows nothing. */
const EMPTY_BUDGET_STATUS = {
  disruptionsAllowed: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  expectedPods: 0,
};

function pathsOf(entries: readonly { method: string; path: string }[]): string[] {
  return entries.map((entry) => `${entry.method} ${entry.path}`);
}

describe('Class: KubernetesCluster', () => {
  describe('Method: nodes', () => {
    it('maps nodes into domain nodes with quantities, taints, readiness and cordon state', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', {
        metadata: { labels: { 'karpenter.sh/nodepool': 'default' }, annotations: { a: 'b' } },
        spec: {
          unschedulable: true,
          taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        },
      });
      // Act
      const nodes = await cluster.nodes();
      // Assess
      expect(nodes).toEqual([
        expect.objectContaining({
          name: 'n1',
          labels: { 'kubernetes.io/hostname': 'n1', 'karpenter.sh/nodepool': 'default' },
          annotations: { a: 'b' },
          taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
          unschedulable: true,
          providerID: 'aws:///us-east-1a/i-n1',
          ready: true,
          deleting: false,
          creationTimestamp: '2025-06-01T12:00:00.000Z',
        }),
      ]);
      expect(nodes[0]?.allocatable).toEqual({ cpu: 3920, memory: 15 * 1024 ** 3, pods: 110 });
    });

    it('reads every page, passing the continue token the server gave', async () => {
      // Prepare
      const { server, cluster } = fake();
      for (const name of ['n1', 'n2', 'n3', 'n4', 'n5']) seedNode(server, name);
      // Act
      const nodes = await cluster.nodes();
      // Assess
      expect(nodes.map((node) => node.name)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
      const queries = server.requests.matching('GET', '/api/v1/nodes').map((r) => r.query);
      expect(queries).toHaveLength(3);
      expect(queries[0]).toEqual({ limit: '2' });
      expect(queries[1]).toEqual({ limit: '2', continue: expect.any(String) });
      expect(queries[2]).toEqual({ limit: '2', continue: expect.any(String) });
      expect(queries[1]?.continue).not.toBe(queries[2]?.continue);
    });
  });

  describe('Method: pendingPods', () => {
    it('asks the server for unbound Pending pods and marks those kube-scheduler found unschedulable', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1');
      seedPod(server, 'running', { nodeName: 'n1' });
      seedPod(server, 'waiting', { conditions: [UNSCHEDULABLE] });
      seedPod(server, 'fresh');
      seedPod(server, 'failed', { phase: 'Failed' });
      // Act
      const pods = await cluster.pendingPods();
      // Assess
      expect(pods.map((pod) => [pod.name, pod.markedUnschedulable ?? false])).toEqual([
        ['fresh', false],
        ['waiting', true],
      ]);
      expect(server.requests.matching('GET', '/api/v1/pods').map((r) => r.query)).toEqual([
        { fieldSelector: 'spec.nodeName=,status.phase=Pending', limit: '2' },
      ]);
    });
  });

  describe('Method: pods', () => {
    it('reads all non-terminal pods across namespaces, page by page', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'a', { nodeName: 'n1', namespace: 'kube-system' });
      seedPod(server, 'b', { nodeName: 'n1' });
      seedPod(server, 'c');
      seedPod(server, 'done', { nodeName: 'n1', phase: 'Succeeded' });
      seedPod(server, 'd', { nodeName: 'n2', cpu: '1500m' });
      // Act
      const pods = await cluster.pods();
      // Assess
      expect(pods.map((pod) => `${pod.namespace}/${pod.name}`)).toEqual([
        'default/b',
        'default/c',
        'default/d',
        'kube-system/a',
      ]);
      expect(pods[2]?.spec.containers[0]?.requests).toEqual({ cpu: 1500 });
      const queries = server.requests.matching('GET', '/api/v1/pods').map((r) => r.query);
      expect(queries).toEqual([
        { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed', limit: '2' },
        {
          fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed',
          limit: '2',
          continue: expect.any(String),
        },
      ]);
    });
  });

  describe('Method: podsOnNode', () => {
    it('selects the running pods bound to the node', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'a', { nodeName: 'n1' });
      seedPod(server, 'b', { nodeName: 'n2' });
      seedPod(server, 'c', { nodeName: 'n1', phase: 'Failed' });
      // Act
      const pods = await cluster.podsOnNode('n1');
      // Assess
      expect(pods.map((pod) => [pod.name, pod.nodeName])).toEqual([['a', 'n1']]);
      expect(server.requests.matching('GET', '/api/v1/pods')[0]?.query).toEqual({
        fieldSelector: 'spec.nodeName=n1,status.phase!=Succeeded,status.phase!=Failed',
        limit: '2',
      });
    });
  });

  describe('Method: daemonSets', () => {
    it('maps each DaemonSet to its pod template', async () => {
      // Prepare
      const { server, cluster } = fake();
      server.store.create('daemonsets', {
        metadata: { name: 'agent', namespace: 'kube-system' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: {
              containers: [
                { name: 'agent', image: 'agent', resources: { requests: { memory: '128Mi' } } },
              ],
              tolerations: [{ operator: 'Exists' }],
            },
          },
        },
      });
      // Act
      const daemonSets = await cluster.daemonSets();
      // Assess
      expect(daemonSets).toHaveLength(1);
      expect(daemonSets[0]).toMatchObject({
        namespace: 'kube-system',
        name: 'agent',
        template: { labels: { app: 'agent' }, spec: { tolerations: [{ operator: 'Exists' }] } },
      });
      expect(daemonSets[0]?.template.spec.containers[0]?.requests).toEqual({
        memory: 128 * 1024 ** 2,
      });
      expect(server.requests.entries.map((r) => [r.path, r.query])).toEqual([
        ['/apis/apps/v1/daemonsets', { limit: '2' }],
      ]);
    });
  });

  describe('Method: podDisruptionBudgets', () => {
    it('maps budgets with their selector, spec and the status the disruption controller keeps', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'web-1', { nodeName: 'n1', labels: { app: 'web' } });
      seedPod(server, 'web-2', { nodeName: 'n1', labels: { app: 'web' } });
      server.store.create('poddisruptionbudgets', {
        metadata: { name: 'web', namespace: 'default' },
        spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
      });
      server.store.create('poddisruptionbudgets', {
        metadata: { name: 'all', namespace: 'kube-system' },
        spec: { selector: {}, minAvailable: '50%', unhealthyPodEvictionPolicy: 'AlwaysAllow' },
      });
      // Act
      const budgets = await cluster.podDisruptionBudgets();
      // Assess
      expect(budgets).toEqual([
        {
          namespace: 'default',
          name: 'web',
          selector: { matchLabels: { app: 'web' } },
          maxUnavailable: 1,
          ...WEB_BUDGET_STATUS,
        },
        {
          namespace: 'kube-system',
          name: 'all',
          selector: {},
          minAvailable: '50%',
          unhealthyPodEvictionPolicy: 'AlwaysAllow',
          ...EMPTY_BUDGET_STATUS,
        },
      ]);
      expect(server.requests.entries.map((r) => r.path)).toEqual([
        '/apis/policy/v1/poddisruptionbudgets',
      ]);
    });
  });

  describe('Method: persistentVolumes, persistentVolumeClaims, storageClasses', () => {
    it('maps the objects that tie a pod to the zones its volumes live in', async () => {
      // Prepare
      const { server, cluster } = fake();
      const zone = { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1a'] };
      const nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [zone] }] } };
      server.store.create('persistentvolumes', {
        metadata: { name: 'pv-1' },
        spec: { storageClassName: 'gp3', capacity: { storage: '10Gi' }, nodeAffinity },
      });
      server.store.create('persistentvolumeclaims', {
        metadata: { name: 'data', namespace: 'default' },
        spec: { storageClassName: 'gp3', volumeName: 'pv-1' },
      });
      server.store.create('storageclasses', {
        metadata: { name: 'gp3' },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
      });
      // Act
      const volumes = await cluster.persistentVolumes();
      const claims = await cluster.persistentVolumeClaims();
      const classes = await cluster.storageClasses();
      // Assess
      expect(volumes).toEqual([{ name: 'pv-1', storageClassName: 'gp3', nodeAffinity }]);
      expect(claims).toEqual([
        { namespace: 'default', name: 'data', storageClassName: 'gp3', volumeName: 'pv-1' },
      ]);
      expect(classes).toEqual([
        { name: 'gp3', provisioner: 'ebs.csi.aws.com', volumeBindingMode: 'WaitForFirstConsumer' },
      ]);
      expect(pathsOf(server.requests.entries)).toEqual([
        'GET /api/v1/persistentvolumes',
        'GET /api/v1/persistentvolumeclaims',
        'GET /apis/storage.k8s.io/v1/storageclasses',
      ]);
    });
  });

  describe('Method: runtimeClasses', () => {
    it('maps each class to the overhead it adds and the nodes it schedules onto, page by page', async () => {
      // Prepare
      const { server, cluster } = fake();
      const toleration = { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' };
      server.store.create('runtimeclasses', {
        metadata: { name: 'gvisor' },
        handler: 'runsc',
        overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      });
      server.store.create('runtimeclasses', {
        metadata: { name: 'kata' },
        handler: 'kata',
        overhead: { podFixed: { memory: '160Mi' } },
        scheduling: { nodeSelector: { sandbox: 'kata' }, tolerations: [toleration] },
      });
      server.store.create('runtimeclasses', { metadata: { name: 'runc' }, handler: 'runc' });
      // Act
      const runtimeClasses = await cluster.runtimeClasses();
      // Assess
      expect(runtimeClasses).toEqual([
        { name: 'gvisor', overhead: { podFixed: { cpu: '250m', memory: '64Mi' } } },
        {
          name: 'kata',
          overhead: { podFixed: { memory: '160Mi' } },
          scheduling: { nodeSelector: { sandbox: 'kata' }, tolerations: [toleration] },
        },
        { name: 'runc' },
      ]);
      expect(pathsOf(server.requests.entries)).toEqual([
        'GET /apis/node.k8s.io/v1/runtimeclasses',
        'GET /apis/node.k8s.io/v1/runtimeclasses',
      ]);
    });
  });

  describe('Method: namespaces', () => {
    it('maps namespaces to their labels, which pod affinity namespace selectors match', async () => {
      // Prepare
      const { server, cluster } = fake();
      // Act
      const namespaces = await cluster.namespaces();
      // Assess
      expect(namespaces).toEqual(
        ['default', 'kube-node-lease', 'kube-public', 'kube-system'].map((name) => ({
          name,
          labels: { 'kubernetes.io/metadata.name': name },
        })),
      );
      expect(pathsOf(server.requests.entries)).toEqual([
        'GET /api/v1/namespaces',
        'GET /api/v1/namespaces',
      ]);
    });
  });

  describe('Method: snapshot', () => {
    it('reads every node page before it asks for the first pod', async () => {
      // Prepare
      const { server, cluster } = fake();
      for (const name of ['n1', 'n2', 'n3']) seedNode(server, name);
      seedPod(server, 'p1', { nodeName: 'n1' });
      seedPod(server, 'p2', { conditions: [UNSCHEDULABLE] });
      // Act
      const snapshot = await cluster.snapshot();
      // Assess
      const paths = server.requests.entries.map((r) => r.path);
      const lastNodes = paths.lastIndexOf('/api/v1/nodes');
      expect(paths.slice(0, lastNodes + 1)).toEqual(['/api/v1/nodes', '/api/v1/nodes']);
      expect(paths.indexOf('/api/v1/pods')).toBeGreaterThan(lastNodes);
      expect(snapshot.nodes.map((node) => node.name)).toEqual(['n1', 'n2', 'n3']);
      expect(snapshot.pods.map((pod) => [pod.name, pod.nodeName, pod.markedUnschedulable])).toEqual(
        [
          ['p1', 'n1', undefined],
          ['p2', undefined, true],
        ],
      );
      expect(snapshot.namespaces).toHaveLength(4);
      expect(snapshot).toMatchObject({
        daemonSets: [],
        podDisruptionBudgets: [],
        persistentVolumes: [],
        persistentVolumeClaims: [],
        storageClasses: [],
        runtimeClasses: [],
      });
    });
  });
});
