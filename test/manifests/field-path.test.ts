import { describe, expect, it } from 'vitest';
import { formatFieldPath } from '../../functions/manifests/field-path.ts';

describe('toFieldPath', () => {
  it.each([
    [
      ['spec', 'template', 'spec', 'requirements', 2, 'operator'],
      'spec.template.spec.requirements[2].operator',
    ],
    [
      ['spec', 'kubelet', 'evictionHard', 'memory.available'],
      'spec.kubelet.evictionHard[memory.available]',
    ],
    [
      ['spec', 'template', 'metadata', 'labels', 'karpenter.sh/nodepool'],
      'spec.template.metadata.labels[karpenter.sh/nodepool]',
    ],
    [['spec', 'limits', 'nvidia.com/gpu'], 'spec.limits[nvidia.com/gpu]'],
    [['status', 'capacity', 'ephemeral-storage'], 'status.capacity[ephemeral-storage]'],
    [['apiVersion'], 'apiVersion'],
    [[], ''],
  ])('writes %j as %s', (path, expected) => {
    // Prepare (the path)

    // Act
    const formatted = formatFieldPath(path);

    // Assess
    expect(formatted).toBe(expected);
  });
});
