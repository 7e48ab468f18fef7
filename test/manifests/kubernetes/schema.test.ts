import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { objectMeta } from '../../../functions/manifests/kubernetes/metadata.ts';
import { podSpec } from '../../../functions/manifests/kubernetes/pod-spec.ts';
import { readWith } from '../../../functions/manifests/kubernetes/schema.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

const SPREAD_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  labels: {app: web}
  creationTimestamp: "2024-05-01T10:00:00Z"
spec:
  containers:
  - name: trainer
    resources:
      requests:
        cpu: 250m
        memory: 512Mi
      limits:
        nvidia.com/gpu: 1
  tolerations:
  - key: nvidia.com/gpu
    operator: Exists
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector:
      matchLabels: {app: web}
`;

const AFFINE_POD = `apiVersion: v1
kind: Pod
metadata:
  name: db-0
  annotations: {karpenter.sh/do-not-disrupt: "true"}
  ownerReferences:
  - {apiVersion: apps/v1, kind: StatefulSet, name: db, uid: a, controller: true}
spec:
  nodeSelector: {kubernetes.io/arch: arm64}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels: {app: db}
  initContainers:
  - name: sidecar
    restartPolicy: Always
    resources:
      requests: {cpu: "1"}
  containers: null
  priority: null
`;

const BAD_QUANTITY = `apiVersion: v1
kind: Pod
metadata:
  name: web-2
spec:
  containers:
  - name: app
    resources:
      requests: {memory: 5 Gi}
`;

const BAD_TYPE = `apiVersion: v1
kind: Pod
metadata:
  name: web-3
spec:
  containers: {name: app}
`;

/** As `@kubernetes/client-node` hands a pod over: timestamps as Dates, absent fields undefined. */
const CLIENT_POD = {
  metadata: {
    name: 'api-0',
    namespace: 'shop',
    creationTimestamp: new Date('2024-05-01T10:00:00Z'),
    deletionTimestamp: new Date('2024-05-01T11:00:00Z'),
    labels: undefined,
  },
  spec: {
    containers: [{ name: 'app', resources: { requests: { cpu: '2' } } }],
    volumes: undefined,
  },
};

describe('reading with a schema read many times', () => {
  it('reads as before once the schema is compiled, and words errors as before', () => {
    // Prepare: a schema of its own, so this test alone counts its reads.
    const schema = z.object({ metadata: objectMeta, spec: podSpec });
    const objects = [...[SPREAD_POD, AFFINE_POD].map(objectOf), CLIENT_POD];
    const expected = objects.map((object) => schema.parse(object));
    const errorsBefore = [BAD_QUANTITY, BAD_TYPE].map(
      (text) => manifestErrorOf(() => readWith(schema, objectOf(text))).message,
    );

    // Act
    const read = Array.from({ length: 600 }, (_, i) => readWith(schema, objects[i % 3]));
    const errorsAfter = [BAD_QUANTITY, BAD_TYPE].map(
      (text) => manifestErrorOf(() => readWith(schema, objectOf(text))).message,
    );

    // Assess
    expect(read).toEqual(Array.from({ length: 600 }, (_, i) => expected[i % 3]));
    expect(errorsAfter).toEqual(errorsBefore);
    expect(errorsBefore).toEqual([
      'spec.containers[0].resources.requests.memory: quantity "5 Gi" is not a valid Kubernetes quantity',
      'spec.containers: must be a list, got a mapping',
    ]);
  });
});
