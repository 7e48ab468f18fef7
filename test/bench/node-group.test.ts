import { describe, expect, it } from 'vitest';
import { cheapestNodeGroup, type Demand } from '../../bench/node-group.ts';

const GIB = 2 ** 30;

/** A type of 10 CPUs and 10 GiB, so shares read as plain numbers. */
const TEN_BY_TEN = { name: 'ten.xlarge', cpu: 10_000, memory: 10 * GIB, pods: 100, price: 1 };

function pods(count: number, cpu: number, memoryGiB: number): Demand[] {
  return Array.from({ length: count }, () => ({ cpu, memory: memoryGiB * GIB }));
}

describe('the one-node-group yardstick', () => {
  it('mixes memory-heavy and CPU-heavy pods where first-fit decreasing strands CPU', () => {
    // Prepare: first-fit decreasing puts the ten memory-heavy pods first, fills two nodes'
    // memory and needs two more for the CPU-heavy ones; three mixed nodes hold them all
    const mixed = [...pods(10, 500, 2), ...pods(10, 1900, 0.5)];

    // Act
    const group = cheapestNodeGroup([TEN_BY_TEN], mixed);

    // Assess
    expect(group).toEqual({ instanceType: 'ten.xlarge', nodes: 3, pricePerHour: 3 });
  });

  it('takes the type whose own packing costs least, and none that cannot hold every pod', () => {
    // Prepare: the small type is cheaper per CPU but cannot hold the 3 GiB pod
    const small = { name: 'small', cpu: 2_000, memory: 2 * GIB, pods: 10, price: 0.1 };
    const large = { name: 'large', cpu: 4_000, memory: 4 * GIB, pods: 10, price: 0.3 };
    const demands = [...pods(3, 1_000, 0.5), ...pods(1, 500, 3)];

    // Act
    const group = cheapestNodeGroup([small, large], demands);

    // Assess
    expect(group).toEqual({ instanceType: 'large', nodes: 2, pricePerHour: 0.6 });
  });
});
