/**
 * The instance-type options still open to one node claim, kept so that narrowing them as pods
 * arrive costs time in proportion to the options removed, not to the options left.
 *
 * Pods only ever add requests, so an option that is too small stays too small. Each template
 * sorts its options once by what they leave for pods (CPU, memory, pods); every claim keeps
 * one cursor per dimension that only moves forward. A proposal (`propose`) lists what a pod
 * would remove without changing anything; `accept` applies it. This is the scheduler's hottest
 * path: Karpenter re-filters every option on every add, which is what makes large batches slow.
 */
import type { InstanceTypeOption } from './instance-type-option.ts';
import type { CoreRequests } from './scheduling-pod.ts';

/** Per-template sort orders, shared by every claim opened from the template. */
export interface OptionIndex {
  readonly options: readonly InstanceTypeOption[];
  readonly cpu: Float64Array;
  readonly memory: Float64Array;
  readonly pods: Float64Array;
  readonly byCpu: Uint32Array;
  readonly byMemory: Uint32Array;
  readonly byPods: Uint32Array;
}

function order(values: Float64Array): Uint32Array {
  const indices = Uint32Array.from(values.keys());
  return indices.sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0) || a - b);
}

export function optionIndex(options: readonly InstanceTypeOption[]): OptionIndex {
  const cpu = Float64Array.from(options, (o) => o.net.cpu ?? 0);
  const memory = Float64Array.from(options, (o) => o.net.memory ?? 0);
  const pods = Float64Array.from(options, (o) => o.net.pods ?? 0);
  return {
    options,
    cpu,
    memory,
    pods,
    byCpu: order(cpu),
    byMemory: order(memory),
    byPods: order(pods),
  };
}

export interface Proposal {
  /** Option indices the pod would remove. */
  readonly removed: readonly number[];
  readonly cursors: readonly [number, number, number];
  readonly remaining: number;
}

/**
 * Invariants (i is an option's index in template order, d a dimension; tested in
 * option-set.test.ts, the last against filtering from scratch):
 * - `alive[i]` is 1 while option i is open, and `count` is the number of open options. Options
 *   only ever close: a claim's requests only grow and its requirements only narrow.
 * - `cursors[d]`: every option before it in the `by<d>` order has less of d than the claim has
 *   accepted, so it is closed. Options from the cursor on have not been measured against the
 *   current total in d; a cursor only moves forward.
 * - `tops[d]`: the position in the `by<d>` order of the largest open option (-1 when none), and
 *   `ceilingValues[d]` its amount of d (-1 when none). They only move down.
 * - `first`: every option before it in template order is closed (a lazily kept memo).
 * - `propose` changes none of the above; it only bumps `epoch` and `stamps`, scratch space that
 *   lists each removed option once. A Proposal holds the distinct open options the new total
 *   (and an extra test) would close, the cursors after them, and the open count left. It is valid
 *   for the state it was made on: `accept` it before anything else is accepted, or drop it.
 */
export class OptionSet {
  private readonly index: OptionIndex;
  private readonly alive: Uint8Array;
  private readonly stamps: Uint32Array;
  private epoch = 0;
  private count: number;
  private cursors: [number, number, number] = [0, 0, 0];
  private tops: [number, number, number];
  private readonly ceilingValues: [number, number, number] = [0, 0, 0];
  private first = 0;

  constructor(index: OptionIndex, allowed?: (option: InstanceTypeOption) => boolean) {
    this.index = index;
    const size = index.options.length;
    this.alive = new Uint8Array(size);
    this.count = 0;
    if (allowed === undefined) {
      this.alive.fill(1);
      this.count = size;
    }
    for (let i = 0; allowed !== undefined && i < size; i++) {
      const option = index.options[i];
      if (option === undefined || !allowed(option)) continue;
      this.alive[i] = 1;
      this.count++;
    }
    this.stamps = new Uint32Array(size);
    const last = index.options.length - 1;
    this.tops = [last, last, last];
    this.refreshCeilings();
  }

  get size(): number {
    return this.count;
  }

  isOpen(index: number): boolean {
    return this.alive[index] === 1;
  }

  /** The first open option in template order: the cheapest, what the claim launches today. */
  cheapest(): InstanceTypeOption | undefined {
    return this.index.options[this.cheapestIndex()];
  }

  /** The cheapest open option's index in template order; the option count when none is open. */
  cheapestIndex(): number {
    while (this.first < this.alive.length && this.alive[this.first] === 0) this.first++;
    return this.first;
  }

  /** The cheapest option left once `proposal`, the latest one made, is accepted. */
  cheapestAfter(proposal: Proposal): InstanceTypeOption | undefined {
    if (proposal.removed.length === 0) return this.cheapest();
    this.cheapest();
    for (let i = this.first; i < this.alive.length; i++) {
      if (this.alive[i] === 1 && this.stamps[i] !== this.epoch) return this.index.options[i];
    }
    return undefined;
  }

  /**
   * Whether the largest open option in each dimension could hold the total: a necessary test,
   * cheap enough to run for every claim a pod considers.
   */
  get ceilings(): { readonly cpu: number; readonly memory: number; readonly pods: number } {
    return {
      cpu: this.ceilingValues[0],
      memory: this.ceilingValues[1],
      pods: this.ceilingValues[2],
    };
  }

  fitsCeiling(cpu: number, memory: number, pods: number): boolean {
    return (
      cpu <= this.ceilingValues[0] &&
      memory <= this.ceilingValues[1] &&
      pods <= this.ceilingValues[2]
    );
  }

  private refreshCeilings(): void {
    for (let d = 0; d < 3; d++) {
      const { sorted, values } = this.dimension(d);
      let top = this.tops[d] ?? -1;
      while (top >= 0 && this.alive[sorted[top] ?? 0] === 0) top--;
      this.tops[d] = top;
      this.ceilingValues[d] = top < 0 ? -1 : (values[sorted[top] ?? 0] ?? 0);
    }
  }

  /** Dimension d (cpu, memory, pods): the options' amounts and their order by amount. */
  private dimension(d: number): { readonly sorted: Uint32Array; readonly values: Float64Array } {
    const { index } = this;
    if (d === 0) return { sorted: index.byCpu, values: index.cpu };
    if (d === 1) return { sorted: index.byMemory, values: index.memory };
    return { sorted: index.byPods, values: index.pods };
  }

  /** What a new total (and an optional extra test) would remove, without changing anything. */
  propose(total: CoreRequests, keep?: (index: number) => boolean): Proposal {
    this.epoch++;
    const removed: number[] = [];
    const cursors: [number, number, number] = [
      this.advance(0, total.cpu, removed),
      this.advance(1, total.memory, removed),
      this.advance(2, total.pods, removed),
    ];
    if (keep !== undefined) {
      for (let i = 0; i < this.alive.length; i++)
        if (this.alive[i] === 1 && !keep(i)) this.mark(i, removed);
    }
    return { removed, cursors, remaining: this.count - removed.length };
  }

  /** Marks the options too small in dimension d for `amount`; returns where its cursor would move. */
  private advance(d: number, amount: number, removed: number[]): number {
    const { sorted, values } = this.dimension(d);
    let cursor = this.cursors[d] ?? 0;
    while (cursor < sorted.length && (values[sorted[cursor] ?? 0] ?? 0) < amount) {
      this.mark(sorted[cursor] ?? 0, removed);
      cursor++;
    }
    return cursor;
  }

  accept(proposal: Proposal): void {
    for (const i of proposal.removed) this.alive[i] = 0;
    this.count = proposal.remaining;
    this.cursors = [...proposal.cursors];
    if (proposal.removed.length > 0) this.refreshCeilings();
  }

  /** The open options in template order (cheapest first), optionally less a proposal's removals. */
  toArray(proposal?: Proposal): InstanceTypeOption[] {
    const out: InstanceTypeOption[] = [];
    const skip = proposal === undefined ? undefined : new Set(proposal.removed);
    this.index.options.forEach((option, i) => {
      if (this.alive[i] === 1 && !skip?.has(i)) out.push(option);
    });
    return out;
  }

  private mark(i: number, removed: number[]): void {
    if (this.alive[i] === 0 || this.stamps[i] === this.epoch) return;
    this.stamps[i] = this.epoch;
    removed.push(i);
  }
}
