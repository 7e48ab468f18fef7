import { describe, expect, it } from 'vitest';
import { MiB } from '../../functions/domain/resources.ts';
import { loadCluster } from '../../functions/manifests/load-cluster.ts';
import { aNodePoolDocument, yamlOf } from '../support/karpenter-documents.ts';
import { manifestErrorOf } from './manifest-fixtures.ts';

const CLUSTER = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
  spec:
    containers:
    - name: app
      resources:
        requests:
          memory: 128Mi
- apiVersion: v1
  kind: Node
  metadata:
    name: ip-10-0-1-1
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
  data:
    key: value
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 0
`;

const KARPENTER = `${yamlOf(
  aNodePoolDocument({ requirements: { 'karpenter.sh/capacity-type': ['spot'] } }),
)}---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole
  amiSelectorTerms:
  - alias: al2023@latest
  subnetSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
  securityGroupSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: slices
spec:
  requirements:
  - key: karpenter.k8s.aws/instance-gpu-count
    operator: In
    values: ["1"]
  capacity:
    nvidia.com/gpu: 4
`;

const STORAGE = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-1
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data-0
  namespace: db
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: gvisor
handler: runsc
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  template:
    spec:
      containers:
      - name: agent
---
apiVersion: v1
kind: Namespace
metadata:
  name: db
`;

describe('loadCluster', () => {
  it('sorts the objects of several files by kind and ignores kinds it does not read', () => {
    // Act
    const cluster = loadCluster([
      { file: 'cluster.yaml', text: CLUSTER },
      { file: 'storage.yaml', text: STORAGE },
    ]);

    // Assess
    expect(cluster.pods.map((pod) => pod.uid)).toEqual(['default/web-1']);
    expect(cluster.pods[0]?.spec.containers[0]?.requests).toEqual({ memory: 128 * MiB });
    expect(cluster.nodes.map((node) => node.name)).toEqual(['ip-10-0-1-1']);
    expect(cluster.storageClasses.map((item) => item.name)).toEqual(['gp3']);
    expect(cluster.persistentVolumes.map((item) => item.name)).toEqual(['pv-1']);
    expect(cluster.persistentVolumeClaims.map((item) => `${item.namespace}/${item.name}`)).toEqual([
      'db/data-0',
    ]);
    expect(cluster.runtimeClasses.map((item) => item.name)).toEqual(['gvisor']);
    expect(cluster.daemonSets.map((item) => `${item.namespace}/${item.name}`)).toEqual([
      'default/agent',
    ]);
    expect(cluster.namespaces).toEqual([{ name: 'db', labels: {} }]);
    expect([cluster.nodePools, cluster.nodeClaims, cluster.nodeClasses]).toEqual([[], [], []]);
  });

  it("reads Karpenter's kinds with their CRDs' validation and defaults", () => {
    // Act
    const cluster = loadCluster([{ file: 'karpenter.yaml', text: KARPENTER }]);

    // Assess
    expect(cluster.nodePools.map((p) => p.metadata.name)).toEqual(['default']);
    expect(cluster.nodePools[0]?.spec.template.spec.expireAfter).toBe('720h');
    expect(cluster.nodeClasses.map((c) => c.spec.role)).toEqual(['KarpenterNodeRole']);
    expect(cluster.nodeOverlays.map((o) => o.spec.capacity)).toEqual([{ 'nvidia.com/gpu': 4 }]);
  });

  it("places a Karpenter kind's error at its file, line and field", () => {
    // Prepare
    const text = KARPENTER.replace('operator: In', 'operator: Sometimes');
    const line = text.split('\n').findIndex((row) => row.includes('operator: Sometimes')) + 1;

    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'karpenter.yaml', text }]));

    // Assess
    expect(error.message).toMatch(
      new RegExp(
        `^karpenter\\.yaml:${line}: spec\\.template\\.spec\\.requirements\\[0\\]\\.operator: `,
      ),
    );
  });

  it('names file, line and field of a malformed quantity', () => {
    // Prepare
    const text = CLUSTER.replace('memory: 128Mi', 'memory: 128 MB');

    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'cluster.yaml', text }]));

    // Assess
    expect(error.location).toEqual({
      file: 'cluster.yaml',
      line: 13,
      path: 'spec.containers[0].resources.requests.memory',
    });
    expect(error.message).toBe(
      'cluster.yaml:13: spec.containers[0].resources.requests.memory: quantity "128 MB" is not a valid Kubernetes quantity',
    );
  });

  it('names the line of the object when the offending field is missing', () => {
    // Prepare
    const text =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  topologySpreadConstraints:\n  - maxSkew: 1\n    whenUnsatisfiable: DoNotSchedule\n';

    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'pod.yaml', text }]));

    // Assess
    expect(error.message).toBe(
      'pod.yaml:7: spec.topologySpreadConstraints[0].topologyKey: required field "topologyKey" is missing',
    );
  });

  it('rejects an object defined twice, naming both places', () => {
    // Prepare
    const again = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: default\n';

    // Act
    const error = manifestErrorOf(() =>
      loadCluster([
        { file: 'cluster.yaml', text: CLUSTER },
        { file: 'extra.yaml', text: `---\n${again}` },
      ]),
    );

    // Assess
    expect(error.message).toBe(
      'extra.yaml:2: duplicate Pod default/web-1: already defined at cluster.yaml:4',
    );
  });

  it('allows the same name in other namespaces and for other kinds', () => {
    // Prepare
    const text = [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: a\n',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: b\n',
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: web\n',
    ].join('---\n');

    // Act
    const cluster = loadCluster([{ file: 'names.yaml', text }]);

    // Assess
    expect(cluster.pods.map((pod) => pod.uid)).toEqual(['a/web', 'b/web']);
    expect(cluster.nodes).toHaveLength(1);
  });

  it('rejects a Karpenter object of a version it does not read', () => {
    // Prepare
    const text = 'apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: old\n';

    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'old.yaml', text }]));

    // Assess
    expect(error.message).toBe(
      'old.yaml:1: apiVersion: NodePool karpenter.sh/v1beta1 is not supported; write it as karpenter.sh/v1',
    );
  });

  it('ignores objects whose kind matches but whose API group does not', () => {
    // Prepare
    const text = 'apiVersion: example.com/v1\nkind: Pod\nmetadata:\n  name: look-alike\n';

    // Act
    const cluster = loadCluster([{ file: 'crd.yaml', text }]);

    // Assess
    expect(cluster.pods).toEqual([]);
  });
});
