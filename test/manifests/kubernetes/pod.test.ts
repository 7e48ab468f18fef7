import { describe, expect, it } from 'vitest';
import { GiB, MiB } from '../../../functions/domain/resources.ts';
import { toPod } from '../../../functions/manifests/kubernetes/pod.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

const PENDING_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 1f2e
  creationTimestamp: "2024-05-01T10:00:00Z"
  labels:
    app: web
  annotations:
    karpenter.sh/do-not-disrupt: "true"
  ownerReferences:
  - apiVersion: v1
    kind: Service
    name: not-the-controller
    uid: a
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-5d4
    uid: b
    controller: true
spec:
  priority: 1000
  terminationGracePeriodSeconds: 30
  runtimeClassName: gvisor
  nodeSelector:
    kubernetes.io/arch: arm64
  containers:
  - name: app
    image: nginx
    ports:
    - containerPort: 8080
      hostPort: 80
      protocol: TCP
    resources:
      requests:
        cpu: 500m
        memory: 256Mi
status:
  phase: Pending
  nominatedNodeName: ip-10-0-0-1
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: '0/3 nodes are available'
`;

/** A running pod with `status` (YAML lines indented under it) after its phase. */
const runningPod = (status: string) =>
  objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: web-2
  creationTimestamp: "2024-05-01T10:00:00Z"
spec:
  nodeName: ip-10-0-0-2
  containers: []
status:
  phase: Running
${status}`);

describe('toPod', () => {
  it('maps identity, ownership, status and placement fields of a pending pod', () => {
    // Act
    const pod = toPod(objectOf(PENDING_POD));

    // Assess
    expect(pod).toEqual({
      uid: '1f2e',
      namespace: 'shop',
      name: 'web-1',
      labels: { app: 'web' },
      annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
      creationTimestamp: '2024-05-01T10:00:00Z',
      ownerKind: 'ReplicaSet',
      deleting: false,
      phase: 'Pending',
      nominatedNodeName: 'ip-10-0-0-1',
      markedUnschedulable: true,
      spec: {
        containers: [
          {
            name: 'app',
            requests: { cpu: 500, memory: 256 * MiB },
            ports: [{ containerPort: 8080, hostPort: 80, protocol: 'TCP' }],
          },
        ],
        initContainers: [],
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        tolerations: [],
        topologySpreadConstraints: [],
        volumes: [],
        runtimeClassName: 'gvisor',
        priority: 1000,
        terminationGracePeriodSeconds: 30,
      },
    });
  });

  it('reads when a running pod was bound and turned Ready, and how often its containers restarted', () => {
    // Prepare
    const object = runningPod(`  conditions:
  - type: PodScheduled
    status: "True"
    lastTransitionTime: "2024-05-01T10:00:05Z"
  - type: Ready
    status: "True"
    lastTransitionTime: "2024-05-01T10:01:30Z"
  initContainerStatuses:
  - name: setup
    restartCount: 4
  containerStatuses:
  - name: app
    restartCount: 1
  - name: sidecar
    restartCount: 2
`);

    // Act
    const pod = toPod(object);

    // Assess
    expect(pod).toMatchObject({
      scheduledAt: '2024-05-01T10:00:05Z',
      readyAt: '2024-05-01T10:01:30Z',
      containerRestarts: 3,
    });
  });

  it('reads no Ready time while the pod is not Ready, and no restarts when none happened', () => {
    // Prepare
    const object = runningPod(`  conditions:
  - type: Ready
    status: "False"
    lastTransitionTime: "2024-05-01T10:01:30Z"
  containerStatuses:
  - name: app
    restartCount: 0
`);

    // Act
    const pod = toPod(object);

    // Assess
    expect(pod.readyAt).toBeUndefined();
    expect(pod.scheduledAt).toBeUndefined();
    expect(pod.containerRestarts).toBeUndefined();
  });

  it('defaults the namespace to default and the uid to namespace/name', () => {
    // Prepare
    const object = objectOf(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers: []\n',
    );

    // Act
    const pod = toPod(object);

    // Assess
    expect(pod).toMatchObject({ namespace: 'default', uid: 'default/solo', deleting: false });
    expect(pod.markedUnschedulable).toBeUndefined();
    expect(pod.ownerKind).toBeUndefined();
  });

  it('sees a pod with a deletion timestamp as deleting and a bound pod by its node name', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: leaving
  deletionTimestamp: "2024-05-01T10:00:00Z"
spec:
  nodeName: ip-10-0-0-2
  containers: []
status:
  phase: Running
`);

    // Act
    const pod = toPod(object);

    // Assess
    expect(pod).toMatchObject({ deleting: true, nodeName: 'ip-10-0-0-2', phase: 'Running' });
  });

  it('requests a resource at its limit when only the limit is set, as the API server defaults it', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: limited
spec:
  containers:
  - name: app
    resources:
      requests:
        cpu: 250m
      limits:
        cpu: "1"
        memory: 1Gi
        nvidia.com/gpu: 1
`);

    // Act
    const [container] = toPod(object).spec.containers;

    // Assess
    expect(container?.requests).toEqual({ cpu: 250, memory: GiB, 'nvidia.com/gpu': 1 });
  });

  it('keeps init containers apart and marks those with restartPolicy Always as sidecars', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: with-init
spec:
  initContainers:
  - name: migrate
    restartPolicy: OnFailure
    resources:
      requests:
        cpu: "2"
  - name: proxy
    restartPolicy: Always
    resources:
      requests:
        memory: 64Mi
  containers:
  - name: app
  overhead:
    cpu: 100m
    memory: 32Mi
`);

    // Act
    const { spec } = toPod(object);

    // Assess
    expect(spec.initContainers).toEqual([
      { name: 'migrate', requests: { cpu: 2000 } },
      { name: 'proxy', requests: { memory: 64 * MiB }, restartPolicy: 'Always' },
    ]);
    expect(spec.containers).toEqual([{ name: 'app', requests: {} }]);
    expect(spec.overhead).toEqual({ cpu: 100, memory: 32 * MiB });
  });

  it('maps affinity, anti-affinity, tolerations and topology spread intact', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: spread
spec:
  containers: []
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - key: karpenter.sh/capacity-type
            operator: In
            values: [spot]
          - key: karpenter.k8s.aws/instance-cpu
            operator: Gt
            values: ["3"]
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        preference:
          matchExpressions:
          - key: topology.kubernetes.io/zone
            operator: NotIn
            values: [us-east-1c]
    podAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm:
          topologyKey: topology.kubernetes.io/zone
          labelSelector:
            matchLabels:
              app: cache
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector:
          matchExpressions:
          - key: app
            operator: In
            values: [web]
        namespaces: [shop]
        namespaceSelector: {}
        matchLabelKeys: [pod-template-hash]
  tolerations:
  - key: dedicated
    operator: Equal
    value: gpu
    effect: NoSchedule
  - operator: Exists
    effect: ""
  - key: node.kubernetes.io/not-ready
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 300
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector:
      matchLabels:
        app: web
    minDomains: 3
    nodeAffinityPolicy: Honor
    nodeTaintsPolicy: Ignore
    matchLabelKeys: [pod-template-hash]
`);

    // Act
    const { spec } = toPod(object);

    // Assess
    expect(spec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
                { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['3'] },
              ],
            },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 10,
            preference: {
              matchExpressions: [
                { key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['us-east-1c'] },
              ],
            },
          },
        ],
      },
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 50,
            podAffinityTerm: {
              topologyKey: 'topology.kubernetes.io/zone',
              labelSelector: { matchLabels: { app: 'cache' } },
            },
          },
        ],
      },
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: 'kubernetes.io/hostname',
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
            namespaces: ['shop'],
            namespaceSelector: {},
            matchLabelKeys: ['pod-template-hash'],
          },
        ],
      },
    });
    expect(spec.tolerations).toEqual([
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      { operator: 'Exists' },
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    expect(spec.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
        minDomains: 3,
        nodeAffinityPolicy: 'Honor',
        nodeTaintsPolicy: 'Ignore',
        matchLabelKeys: ['pod-template-hash'],
      },
    ]);
  });

  it('maps claimed and generic ephemeral volumes, and counts dynamic resource claims', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Pod
metadata:
  name: stateful
spec:
  containers: []
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: one-gpu
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data-0
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec:
          storageClassName: gp3
          accessModes: [ReadWriteOnce]
  - name: config
    configMap:
      name: settings
`);

    // Act
    const { spec } = toPod(object);

    // Assess
    expect(spec.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-0' } },
      { name: 'scratch', ephemeral: { storageClassName: 'gp3' } },
      { name: 'config' },
    ]);
    expect(spec.resourceClaimCount).toBe(1);
  });

  it('reads the plain objects @kubernetes/client-node produces, timestamps as Dates and absent fields as undefined', () => {
    // Prepare
    const object = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'typed',
        namespace: undefined,
        creationTimestamp: new Date('2024-05-01T10:00:00Z'),
      },
      spec: {
        containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }],
        tolerations: undefined,
      },
    };

    // Act
    const pod = toPod(object);

    // Assess
    expect(pod).toMatchObject({
      namespace: 'default',
      creationTimestamp: '2024-05-01T10:00:00.000Z',
      spec: { containers: [{ name: 'app', requests: { cpu: 1000 } }], tolerations: [] },
    });
  });

  it.each([
    [
      'containers that are not a list',
      'spec:\n  containers:\n    name: app\n',
      'spec.containers: must be a list, got a mapping',
    ],
    [
      'a maxSkew that is not a number',
      'spec:\n  topologySpreadConstraints:\n  - maxSkew: one\n    topologyKey: zone\n    whenUnsatisfiable: DoNotSchedule\n',
      'spec.topologySpreadConstraints[0].maxSkew: must be a number, got "one"',
    ],
    [
      'a whenUnsatisfiable the API does not allow',
      'spec:\n  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: zone\n    whenUnsatisfiable: Sometimes\n',
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: whenUnsatisfiable "Sometimes" is not one of DoNotSchedule, ScheduleAnyway',
    ],
    [
      'an unknown toleration effect',
      'spec:\n  tolerations:\n  - key: a\n    effect: NoRun\n',
      'spec.tolerations[0].effect: effect "NoRun" is not one of NoSchedule, PreferNoSchedule, NoExecute',
    ],
    [
      'a topology spread constraint without a topology key',
      'spec:\n  topologySpreadConstraints:\n  - maxSkew: 1\n    whenUnsatisfiable: DoNotSchedule\n',
      'spec.topologySpreadConstraints[0].topologyKey: required field "topologyKey" is missing',
    ],
    [
      'a node affinity operator pods may not use',
      'spec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - key: a\n            operator: Gte\n',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: operator "Gte" is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt',
    ],
    [
      'a label value that is not text',
      'metadata:\n  name: p\n  labels:\n    tier: 1\n',
      'metadata.labels.tier: must be a string, got 1',
    ],
    [
      'a malformed quantity',
      'spec:\n  containers:\n  - name: a\n  - name: b\n    resources:\n      requests:\n        memory: 5 Gi\n',
      'spec.containers[1].resources.requests.memory: quantity "5 Gi" is not a valid Kubernetes quantity',
    ],
    ['a pod without a name', 'metadata: {}\n', 'metadata.name: required field "name" is missing'],
  ])('rejects %s, naming the field', (_, body, message) => {
    // Prepare
    const withName = body.startsWith('metadata') ? body : `metadata:\n  name: p\n${body}`;
    const object = objectOf(`apiVersion: v1\nkind: Pod\n${withName}`);

    // Act
    const error = manifestErrorOf(() => toPod(object));

    // Assess
    expect(error.message).toBe(message);
  });
});
