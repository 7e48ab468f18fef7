import { describe, expect, it } from 'vitest';
import { GiB } from '../../../functions/domain/resources.ts';
import { toNode } from '../../../functions/manifests/kubernetes/node.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

describe('toNode', () => {
  it('maps labels, taints, cordon, provider id, resources, readiness and conditions', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Node
metadata:
  name: ip-10-0-1-1.ec2.internal
  creationTimestamp: "2024-05-01T09:00:00Z"
  labels:
    karpenter.sh/nodepool: default
    node.kubernetes.io/instance-type: m7g.large
  annotations:
    karpenter.sh/nodepool-hash: "123"
spec:
  providerID: aws:///us-east-1a/i-0abc
  unschedulable: true
  taints:
  - key: dedicated
    value: gpu
    effect: NoSchedule
    timeAdded: null
  - key: karpenter.sh/disrupted
    effect: NoSchedule
status:
  capacity:
    cpu: "2"
    memory: 8Gi
    pods: "29"
  allocatable:
    cpu: 1930m
    memory: 7Gi
    pods: "29"
  conditions:
  - type: MemoryPressure
    status: "False"
  - type: Ready
    status: "True"
    reason: KubeletReady
    lastTransitionTime: "2024-05-01T09:01:00Z"
`);

    // Act
    const node = toNode(object);

    // Assess
    expect(node).toEqual({
      name: 'ip-10-0-1-1.ec2.internal',
      labels: {
        'karpenter.sh/nodepool': 'default',
        'node.kubernetes.io/instance-type': 'm7g.large',
      },
      annotations: { 'karpenter.sh/nodepool-hash': '123' },
      taints: [
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' },
      ],
      unschedulable: true,
      providerID: 'aws:///us-east-1a/i-0abc',
      capacity: { cpu: 2000, memory: 8 * GiB, pods: 29 },
      allocatable: { cpu: 1930, memory: 7 * GiB, pods: 29 },
      ready: true,
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T09:01:00Z' },
      ],
      deleting: false,
      creationTimestamp: '2024-05-01T09:00:00Z',
    });
  });

  it('reads a bare node as schedulable, not ready, with allocatable equal to capacity', () => {
    // Prepare
    const object = objectOf(`apiVersion: v1
kind: Node
metadata:
  name: bare
  deletionTimestamp: "2024-05-01T09:00:00Z"
status:
  capacity:
    cpu: "4"
`);

    // Act
    const node = toNode(object);

    // Assess
    expect(node).toMatchObject({
      taints: [],
      unschedulable: false,
      ready: false,
      deleting: true,
      capacity: { cpu: 4000 },
      allocatable: { cpu: 4000 },
    });
    expect(node.providerID).toBeUndefined();
  });

  it.each([
    [
      'an unknown taint effect',
      'spec:\n  taints:\n  - key: a\n    effect: NoStart\n',
      'spec.taints[0].effect: effect "NoStart" is not one of NoSchedule, PreferNoSchedule, NoExecute',
    ],
    [
      'a taint without an effect',
      'spec:\n  taints:\n  - key: a\n',
      'spec.taints[0].effect: required field "effect" is missing (one of NoSchedule, PreferNoSchedule, NoExecute)',
    ],
    [
      'unschedulable that is not a boolean',
      'spec:\n  unschedulable: "yes"\n',
      'spec.unschedulable: must be true or false, got "yes"',
    ],
    [
      'a malformed extended resource',
      'status:\n  allocatable:\n    nvidia.com/gpu: many\n',
      'status.allocatable[nvidia.com/gpu]: quantity "many" is not a valid Kubernetes quantity',
    ],
  ])('rejects %s, naming the field', (_, body, message) => {
    // Prepare
    const object = objectOf(`apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n${body}`);

    // Act
    const error = manifestErrorOf(() => toNode(object));

    // Assess
    expect(error.message).toBe(message);
  });
});
