import { describe, expect, it } from 'vitest';
import { GiB } from '../../../functions/domain/resources.ts';
import { GrowthBound } from '../../../functions/domain/scheduling/growth-bound.ts';
import type { InstanceTypeOption } from '../../../functions/domain/scheduling/instance-type-option.ts';
import { anInstanceType } from '../../support/builders.ts';

function option(name: string, net: Record<string, number>): InstanceTypeOption {
  return { instanceType: anInstanceType({ name, cpu: 1, memoryGiB: 1, price: 1 }), net };
}

/** Per GPU, g.xlarge costs $0.80 and g.12xlarge $1.15; per core, g.12xlarge is cheaper. */
const GPU_TYPES = new GrowthBound(
  [
    option('g.xlarge', { cpu: 4000, memory: 16 * GiB, pods: 58, 'nvidia.com/gpu': 1 }),
    option('g.12xlarge', { cpu: 48000, memory: 192 * GiB, pods: 234, 'nvidia.com/gpu': 4 }),
  ],
  [0.8, 4.6],
);

describe('how far a claim may grow, counting every resource', () => {
  it('stops a GPU mix at the size of the cheapest type per GPU', () => {
    // Prepare
    const onePod = { cpu: 2000, memory: 10 * GiB, pods: 1, 'nvidia.com/gpu': 1 };

    // Act
    const scale = GPU_TYPES.scale(onePod);

    // Assess
    expect(scale).toBe(1);
  });

  it('lets a CPU mix grow into the type that is cheapest per core', () => {
    // Prepare
    const onePod = { cpu: 1000, memory: 1 * GiB, pods: 1 };

    // Act
    const scale = GPU_TYPES.scale(onePod);

    // Assess
    expect(scale).toBe(48);
  });

  it('is unbounded for no requests and zero for a resource no type has', () => {
    // Act
    const none = GPU_TYPES.scale({});
    const neuron = GPU_TYPES.scale({ pods: 1, 'aws.amazon.com/neuron': 1 });

    // Assess
    expect(none).toBe(Number.POSITIVE_INFINITY);
    expect(neuron).toBe(0);
  });
});
