import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceTypeOption } from '../../../functions/domain/scheduling/instance-type-option.ts';
import { OpenOptionLists } from '../../../functions/domain/scheduling/open-option-lists.ts';
import type { PricedIndex } from '../../../functions/domain/scheduling/option-masks.ts';
import { anInstanceType } from '../../support/builders.ts';

const OPTIONS: readonly InstanceTypeOption[] = Array.from({ length: 12 }, (_, i) =>
  anInstanceType({ name: `t${i}.large`, cpu: 2 + i, memoryGiB: 8, price: 0.1 + i / 100 }),
).map((instanceType) => ({ instanceType, net: instanceType.allocatable }));

/** A price order over the options, not their own order: the lists follow it. */
const ORDER: readonly PricedIndex[] = [5, 0, 11, 3, 7, 1, 9, 2, 10, 4, 8, 6].map((index) => ({
  index,
  offering: OPTIONS[index]?.instanceType.offerings[0] as PricedIndex['offering'],
}));

/** The list written out naively: the order's open options, at most `limit`. */
function naive(open: ReadonlySet<number>, limit: number): string[] {
  return ORDER.filter(({ index }) => open.has(index))
    .slice(0, limit)
    .map(({ index }) => OPTIONS[index]?.instanceType.name ?? '');
}

describe("a claim's open options in price order", () => {
  it('lists the open options in the price order, cut at the limit, each with its offering', () => {
    fc.assert(
      fc.property(
        fc.array(fc.subarray([...OPTIONS.keys()]), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 14 }),
        (claims, limit) => {
          // Prepare
          const lists = new OpenOptionLists(OPTIONS);

          for (const openIndices of claims) {
            const open = new Set(openIndices);

            // Act
            const list = lists.openList(ORDER, (i) => open.has(i), limit);

            // Assess
            expect(list.instanceTypes.map((it) => it.name)).toEqual(naive(open, limit));
            expect(list.options.map((o) => o.instanceType)).toEqual(list.instanceTypes);
            for (const o of list.options) {
              const entry = ORDER.find((p) => OPTIONS[p.index]?.instanceType === o.instanceType);
              expect(o.offering).toBe(entry?.offering);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hands claims whose open options agree on the list one list object, and others their own', () => {
    // Prepare
    const lists = new OpenOptionLists(OPTIONS);
    const open = (indices: number[]) => (i: number) => indices.includes(i);

    // Act
    const first = lists.openList(ORDER, open([0, 5, 11]), 600);
    const same = lists.openList(ORDER, open([11, 0, 5]), 600);
    const beyondTheCut = lists.openList(ORDER, open([5, 0, 6]), 2);
    const cutSame = lists.openList(ORDER, open([5, 0, 4]), 2);
    const other = lists.openList(ORDER, open([0, 5]), 600);

    // Assess
    expect(same).toBe(first);
    expect(same.instanceTypes).toBe(first.instanceTypes);
    expect(cutSame).toBe(beyondTheCut);
    expect(other).not.toBe(first);
    expect(other.instanceTypes.map((it) => it.name)).toEqual(['t5.large', 't0.large']);
  });
});
