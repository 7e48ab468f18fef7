/**
 * What remains of every limit while one plan opens claims (core scheduling/scheduler.go): a
 * claim is offered only the options whose charge fits what remains of its pool's limits and the
 * cluster's (as Karpenter filters them), and then counts as what it would launch: its cheapest
 * option. A pod that would grow a claim into a larger option must find room for the difference.
 * Karpenter instead takes the largest option away, which leaves a cost limit mostly unused: the
 * options of one claim span many times its price. What the launch may fill instead of the
 * cheapest is bounded when the claim is written (see scheduling/claim-admission.ts).
 *
 * The planner asks this for every option of every claim it opens, so charges are vectors of
 * exact amounts over the limited keys, computed once (`vector`), and compared without lookups.
 */
import { amountOf, type Charge, type PoolCharge } from './limit-charge.ts';
import { covers, type LimitRefusal, type LimitScope, refusal, remainingOf } from './limit-scope.ts';

/** A charge as exact amounts of the budget's keys, in the budget's order. */
export type ChargeVector = readonly bigint[];

interface Entry {
  readonly scope: LimitScope;
  /** What is left of each of the budget's keys; keys the scope does not limit are never short. */
  readonly remaining: (bigint | undefined)[];
}

export class LimitBudget {
  private readonly keys: readonly string[];
  private readonly entries: readonly Entry[];
  private readonly byPool = new Map<string, readonly Entry[]>();

  /** `charges` are the nodes and claims that exist already, each counted against its pool. */
  constructor(scopes: readonly LimitScope[], charges: readonly PoolCharge[]) {
    this.keys = [...new Set(scopes.flatMap((s) => Object.keys(s.limits)))].sort();
    this.entries = scopes.map((scope) => {
      const left = remainingOf(scope, charges);
      return { scope, remaining: this.keys.map((name) => left[name]) };
    });
  }

  vector(charge: Charge): ChargeVector {
    return this.keys.map((name) => amountOf(charge, name));
  }

  isLimited(nodePool: string): boolean {
    return this.of(nodePool).length > 0;
  }

  allows(nodePool: string, charge: ChargeVector): boolean {
    return this.of(nodePool).every((entry) => shortKey(entry, charge) === undefined);
  }

  /** Takes a new claim's charge from every limit over its pool. */
  take(nodePool: string, charge: ChargeVector): void {
    for (const { remaining } of this.of(nodePool)) {
      remaining.forEach((left, i) => {
        if (left !== undefined) remaining[i] = left - (charge[i] ?? 0n);
      });
    }
  }

  /**
   * A claim of the pool growing from one charge to another (a pod made its cheapest option a
   * larger one): takes the difference if every limit has room for it, else changes nothing.
   */
  grow(nodePool: string, from: ChargeVector, to: ChargeVector): boolean {
    const growth = to.map((amount, i) => amount - (from[i] ?? 0n));
    if (!this.affords(nodePool, growth)) return false;
    this.take(nodePool, growth);
    return true;
  }

  /** Whether every limit over the pool has room for a growth (what shrinks always fits). */
  affords(nodePool: string, growth: ChargeVector): boolean {
    return this.of(nodePool).every(({ remaining }) =>
      remaining.every((left, i) => {
        const more = growth[i] ?? 0n;
        return left === undefined || more <= 0n || more <= left;
      }),
    );
  }

  /** Why `charge` does not fit: the first limit over the pool it would pass. */
  refusal(nodePool: string, charge: ChargeVector): LimitRefusal | undefined {
    for (const entry of this.of(nodePool)) {
      const i = shortKey(entry, charge);
      if (i === undefined) continue;
      const name = this.keys[i] ?? '';
      const remaining = { [name]: entry.remaining[i] ?? 0n };
      return refusal(entry.scope, name, remaining);
    }
    return undefined;
  }

  private of(nodePool: string): readonly Entry[] {
    let entries = this.byPool.get(nodePool);
    if (entries === undefined) {
      entries = this.entries.filter((e) => covers(e.scope, nodePool));
      this.byPool.set(nodePool, entries);
    }
    return entries;
  }
}

/** The index of the first key the charge would take past what remains, or undefined. */
function shortKey(entry: Entry, charge: ChargeVector): number | undefined {
  const { remaining } = entry;
  for (let i = 0; i < remaining.length; i++) {
    const left = remaining[i];
    if (left !== undefined && (charge[i] ?? 0n) > left) return i;
  }
  return undefined;
}

/** The smallest of each key over several charges: no option is smaller, so if it does not fit, none does. */
export function floorOf(charges: Iterable<ChargeVector>): ChargeVector | undefined {
  let floor: bigint[] | undefined;
  for (const charge of charges) {
    if (floor === undefined) floor = [...charge];
    else
      charge.forEach((amount, i) => {
        if (amount < (floor?.[i] ?? amount)) (floor as bigint[])[i] = amount;
      });
  }
  return floor;
}

/** The largest of each key over several charges. */
export function ceilingOf(charges: readonly ChargeVector[]): ChargeVector {
  const ceiling: bigint[] = [];
  for (const charge of charges) {
    charge.forEach((amount, i) => {
      if (ceiling[i] === undefined || amount > (ceiling[i] ?? amount)) ceiling[i] = amount;
    });
  }
  return ceiling;
}
