/**
 * A claim's open options in price order, as one list object shared by every claim of the
 * template whose open options agree on it. Claims filled from a few pod sizes end on a few
 * lists — 1,099 claims of 5,000 pods of Karpenter's benchmark mix hold 51, 4,603 claims of
 * 20,000 hold 41 — each up to 600 types long; built per claim, they were most of what a plan
 * allocates after scheduling, and the report then named and wrote each one again. Shared, what
 * is made of a list (its instance types here, its names and JSON in the report) is made once.
 */
import type { InstanceType } from '../instance-type.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import type { PricedIndex } from './option-masks.ts';
import type { PricedOption } from './priced-option.ts';

export interface OpenOptionList {
  /** Cheapest first. */
  readonly options: readonly PricedOption[];
  /** The options' instance types, in the same order. */
  readonly instanceTypes: readonly InstanceType[];
}

/** One list: the positions in its price order that it holds, and the list. */
interface Known {
  readonly positions: Int32Array;
  readonly list: OpenOptionList;
}

/** Lists kept per template, past which they start over (a controller plans pass after pass). */
const MAX_LISTS = 4096;

/** FNV-1a over the positions: equal lists hash alike; a match is then checked in full. */
function hashOf(positions: Int32Array, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < count; i++) hash = Math.imul(hash ^ (positions[i] ?? 0), 0x01000193);
  return hash >>> 0;
}

function holds(known: Known, positions: Int32Array, count: number): boolean {
  if (known.positions.length !== count) return false;
  for (let i = 0; i < count; i++) if (known.positions[i] !== positions[i]) return false;
  return true;
}

export class OpenOptionLists {
  private readonly options: readonly InstanceTypeOption[];
  /** Per price order: its entries as PricedOptions, and the lists made from it by hash. */
  private readonly orders = new Map<
    readonly PricedIndex[],
    { readonly priced: readonly PricedOption[]; readonly lists: Map<number, Known[]> }
  >();
  private kept = 0;
  private scratch = new Int32Array(0);

  /** `options` in the template's order, which PricedIndex.index counts in. */
  constructor(options: readonly InstanceTypeOption[]) {
    this.options = options;
  }

  /** The first `limit` entries of `order` whose option `isOpen` says is open. */
  openList(
    order: readonly PricedIndex[],
    isOpen: (index: number) => boolean,
    limit: number,
  ): OpenOptionList {
    if (this.scratch.length < order.length) this.scratch = new Int32Array(order.length);
    const positions = this.scratch;
    let count = 0;
    for (let p = 0; p < order.length && count < limit; p++) {
      if (isOpen(order[p]?.index ?? -1)) positions[count++] = p;
    }
    if (this.kept >= MAX_LISTS) {
      this.orders.clear();
      this.kept = 0;
    }
    const { priced, lists } = this.orderOf(order);
    const hash = hashOf(positions, count);
    const same = lists.get(hash);
    const known = same?.find((k) => holds(k, positions, count));
    if (known !== undefined) return known.list;
    const options = Array.from(positions.subarray(0, count), (p) => priced[p] as PricedOption);
    const list = { options, instanceTypes: options.map((o) => o.instanceType) };
    const entry = { positions: positions.slice(0, count), list };
    if (same === undefined) lists.set(hash, [entry]);
    else same.push(entry);
    this.kept++;
    return list;
  }

  private orderOf(order: readonly PricedIndex[]) {
    let found = this.orders.get(order);
    if (found === undefined) {
      const priced = order.map(({ index, offering }) => ({
        instanceType: this.options[index]?.instanceType as InstanceType,
        offering,
      }));
      found = { priced, lists: new Map() };
      this.orders.set(order, found);
    }
    return found;
  }
}
