import { describe, expect, it } from 'vitest';
import type { Container } from '../../../functions/domain/pod.ts';
import { MiB, parseResources, type Resources } from '../../../functions/domain/resources.ts';
import { podRequests } from '../../../functions/domain/scheduling/pod-requests.ts';
import { aPod } from '../../support/builders.ts';
import { aContainer, aPodWithContainers, aSidecar } from '../../support/scheduling-builders.ts';

const cpu = (quantity: string) => ({ cpu: quantity });

describe('what a pod requests of a node', () => {
  it.each<[string, Container[], Container[], Resources]>([
    ['one container', [aContainer('app', cpu('1'))], [], { cpu: 1000, pods: 1 }],
    [
      'the sum of its containers',
      [
        aContainer('a', { cpu: '500m', memory: '1Gi' }),
        aContainer('b', { cpu: '200m', memory: '512Mi' }),
      ],
      [],
      { cpu: 700, memory: 1536 * MiB, pods: 1 },
    ],
    [
      'the largest init container when it is bigger (Kubernetes init-container example)',
      [
        aContainer('app', { cpu: '500m', memory: '1Gi' }),
        aContainer('sidecar', { cpu: '200m', memory: '512Mi' }),
      ],
      [
        aContainer('download', { cpu: '1', memory: '2Gi' }),
        aContainer('process', { cpu: '2', memory: '4Gi' }),
      ],
      { cpu: 2000, memory: 4096 * MiB, pods: 1 },
    ],
    [
      'per resource the larger of init and app (init cpu, app memory)',
      [aContainer('app', { cpu: '1', memory: '4Gi' })],
      [aContainer('init', { cpu: '3', memory: '1Gi' })],
      { cpu: 3000, memory: 4096 * MiB, pods: 1 },
    ],
    // The KEP-753 cases of Kubernetes' own PodRequests tests (component-helpers, helpers_test.go).
    [
      'a sidecar added to the app (KEP-753: restartable init container)',
      [aContainer('container-1', cpu('1'))],
      [aSidecar('restartable-init-1', cpu('1'))],
      { cpu: 2000, pods: 1 },
    ],
    [
      'sidecars started after an init container (KEP-753: max(5, 1+2+3+1) = 7)',
      [aContainer('container-1', cpu('1'))],
      [
        aContainer('init-1', cpu('5')),
        aSidecar('restartable-init-1', cpu('1')),
        aSidecar('restartable-init-2', cpu('2')),
        aSidecar('restartable-init-3', cpu('3')),
      ],
      { cpu: 7000, pods: 1 },
    ],
    [
      'an init container beside the sidecars started before it (KEP-753: 5+1+2 = 8)',
      [aContainer('container-1', cpu('1'))],
      [
        aContainer('init-1', cpu('5')),
        aSidecar('restartable-init-1', cpu('1')),
        aSidecar('restartable-init-2', cpu('2')),
        aContainer('init-2', cpu('5')),
        aSidecar('restartable-init-3', cpu('3')),
      ],
      { cpu: 8000, pods: 1 },
    ],
    [
      'an init container after a sidecar (KEP-753: 200m + 10m = 210m)',
      [aContainer('container-1', cpu('100m'))],
      [aSidecar('restartable-init-1', cpu('10m')), aContainer('init-1', cpu('200m'))],
      { cpu: 210, pods: 1 },
    ],
    [
      'the same containers in the other order (declaration order matters)',
      [aContainer('container-1', cpu('100m'))],
      [aContainer('init-1', cpu('200m')), aSidecar('restartable-init-1', cpu('10m'))],
      { cpu: 200, pods: 1 },
    ],
    ['no containers at all: just the pod slot', [], [], { pods: 1 }],
  ])('is %s', (_name, containers, initContainers, expected) => {
    // Prepare
    const pod = aPodWithContainers({ containers, initContainers });

    // Act
    const requests = podRequests(pod);

    // Assess
    expect(requests).toEqual(expected);
  });

  it('adds the pod overhead (Kubernetes pod-overhead example: 2250m, 320Mi)', () => {
    // Prepare
    const pod = aPodWithContainers({
      containers: [
        aContainer('busybox-ctr', { cpu: '500m', memory: '100Mi' }),
        aContainer('nginx-ctr', { cpu: '1500m', memory: '100Mi' }),
      ],
      overhead: { cpu: '250m', memory: '120Mi' },
    });

    // Act
    const requests = podRequests(pod);

    // Assess
    expect(requests).toEqual({ cpu: 2250, memory: 320 * MiB, pods: 1 });
  });

  it('adds the RuntimeClass overhead when the pod carries none', () => {
    // Prepare
    const pod = aPodWithContainers({
      containers: [aContainer('app', { cpu: '500m', memory: '100Mi' })],
      runtimeClassName: 'kata-fc',
    });

    // Act
    const requests = podRequests(pod, parseResources({ cpu: '250m', memory: '120Mi' }));

    // Assess
    expect(requests).toEqual({ cpu: 750, memory: 220 * MiB, pods: 1 });
  });

  it("prefers the pod's own overhead over the RuntimeClass one", () => {
    // Prepare
    const pod = aPodWithContainers({
      containers: [aContainer('app', cpu('1'))],
      overhead: { cpu: '100m' },
    });

    // Act
    const requests = podRequests(pod, parseResources({ cpu: '250m' }));

    // Assess
    expect(requests).toEqual({ cpu: 1100, pods: 1 });
  });

  it('counts a pods request of its own on top of the implicit slot', () => {
    // Prepare
    const pod = aPod({ cpu: '1', requests: { 'nvidia.com/gpu': '2' } });

    // Act
    const requests = podRequests(pod);

    // Assess
    expect(requests).toEqual({ cpu: 1000, 'nvidia.com/gpu': 2, pods: 1 });
  });
});
