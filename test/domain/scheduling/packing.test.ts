import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type NodeShape,
  type Packing,
  type PackingCatalog,
  type PodSize,
  packingCatalog,
  packSizes,
} from '../../../functions/domain/scheduling/packing.ts';

const GIB = 2 ** 30;

function shape(cpu: number, memoryGiB: number, price: number, pods = 110): NodeShape {
  return { cpu, memory: memoryGiB * GIB, pods, price };
}

function size(cpu: number, memoryGiB: number, count: number): PodSize {
  return { cpu, memory: memoryGiB * GIB, pods: 1, count };
}

/** How many pods of each size the packing placed. */
function placed(packing: Packing, sizes: number): number[] {
  const counts = new Array<number>(sizes).fill(0);
  for (const node of packing.nodes) {
    node.counts.forEach((n, s) => {
      counts[s] = (counts[s] ?? 0) + n * node.copies;
    });
  }
  return counts;
}

/** What one node of the group uses. */
function use(node: Packing['nodes'][number], sizes: readonly PodSize[]) {
  const total = { cpu: 0, memory: 0, pods: 0 };
  node.counts.forEach((n, s) => {
    total.cpu += n * (sizes[s]?.cpu ?? 0);
    total.memory += n * (sizes[s]?.memory ?? 0);
    total.pods += n * (sizes[s]?.pods ?? 0);
  });
  return total;
}

function holds(s: NodeShape, total: { cpu: number; memory: number; pods: number }): boolean {
  return total.cpu <= s.cpu && total.memory <= s.memory && total.pods <= s.pods;
}

describe('packing pod sizes onto types by cost', () => {
  it('puts CPU-heavy and memory-heavy pods on one node when that costs less than one of each', () => {
    // Prepare: alone, the CPU-heavy pods fill a compute type and the memory-heavy ones a memory
    // type ($0.20); together they fill one general type ($0.15)
    const catalog = packingCatalog([
      shape(4_000, 2, 0.1),
      shape(1_000, 8, 0.1),
      shape(4_000, 8, 0.15),
    ]);
    const sizes = [size(1_900, 0.25, 2), size(100, 3.5, 2)];

    // Act
    const packing = packSizes(sizes, catalog);

    // Assess
    expect(packing?.price).toBeCloseTo(0.15);
    expect(packing?.nodes).toEqual([{ type: 2, counts: [2, 2], copies: 1 }]);
  });

  it('takes a node as many times as the pods left allow', () => {
    // Prepare: a hundred pods, four to a node
    const catalog = packingCatalog([shape(2_000, 4, 0.05)]);

    // Act
    const packing = packSizes([size(500, 1, 100)], catalog);

    // Assess
    expect(packing).toEqual({ nodes: [{ type: 0, counts: [4], copies: 25 }], price: 1.25 });
  });

  it('packs nothing when some size fits no type', () => {
    // Prepare
    const catalog = packingCatalog([shape(2_000, 4, 0.05)]);

    // Act
    const packing = packSizes([size(500, 1, 3), size(500, 8, 1)], catalog);

    // Assess
    expect(packing).toBeUndefined();
  });

  it('searches only the types no cheaper one holds as much of every resource as', () => {
    // Prepare: the second type is dearer than the first and no larger; the third is larger
    const shapes = [shape(2_000, 4, 0.05), shape(2_000, 2, 0.06), shape(4_000, 4, 0.07)];

    // Act
    const catalog: PackingCatalog = packingCatalog(shapes);

    // Assess
    expect(catalog.frontier).toEqual([0, 2]);
  });

  it('places every pod once, on nodes their type holds, each the cheapest type that holds it', () => {
    // Prepare
    const shapes = fc
      .array(
        fc.record({
          cpu: fc.integer({ min: 500, max: 64_000 }),
          memory: fc.integer({ min: 1, max: 256 }).map((g) => g * GIB),
          pods: fc.integer({ min: 1, max: 110 }),
          price: fc.integer({ min: 1, max: 5_000 }).map((c) => c / 1_000),
        }),
        { minLength: 1, maxLength: 12 },
      )
      .map((list) => [...list].sort((a, b) => a.price - b.price));
    const sizes = fc.array(
      fc.record({
        cpu: fc.integer({ min: 0, max: 8_000 }),
        memory: fc.integer({ min: 0, max: 32 * 1024 }).map((m) => m * 2 ** 20),
        pods: fc.constant(1),
        count: fc.integer({ min: 1, max: 200 }),
      }),
      { minLength: 1, maxLength: 8 },
    );

    fc.assert(
      fc.property(shapes, sizes, (types, pods) => {
        // Act
        const catalog = packingCatalog(types);
        const packing = packSizes(pods, catalog);

        // Assess
        const fitsSomewhere = pods.every((p) => types.some((t) => holds(t, { ...p, pods: 1 })));
        expect(packing !== undefined).toBe(fitsSomewhere);
        if (packing === undefined) return;
        expect(placed(packing, pods.length)).toEqual(pods.map((p) => p.count));
        let price = 0;
        for (const node of packing.nodes) {
          const total = use(node, pods);
          expect(types.findIndex((t) => holds(t, total))).toBe(node.type);
          price += node.copies * (types[node.type]?.price ?? 0);
        }
        expect(packing.price).toBeCloseTo(price);
      }),
    );
  });

  it('gives the same packing for the same sizes and types', () => {
    // Prepare
    const catalog = packingCatalog([
      shape(2_000, 1, 0.02),
      shape(2_000, 8, 0.07),
      shape(8_000, 32, 0.3),
    ]);
    const sizes = [size(1_500, 0.25, 40), size(250, 4, 30), size(1_000, 1, 25)];

    // Act
    const first = packSizes(sizes, catalog);
    const second = packSizes(sizes, catalog);

    // Assess
    expect(second).toEqual(first);
  });
});
