/**
 * What remains of every limit while one plan opens claims (core scheduling/scheduler.go): a
 * claim is offered only the options whose charge fits what remains of its pool's limits and the
 * cluster's (as Karpenter filters them), and then counts as what it would launch: its cheapest
 * option. A pod that would grow a claim into a larger option must find room for the difference.
 * Karpenter instead takes the largest option away, which leaves a cost limit mostly unused: the
 * options of one claim span many times its price. What the launch may fill instead of the
 * cheapest is bounded when the claim is written (see claim-charges.ts).
 */
import type { Limits } from '../resources.ts';
import { amountOf, type Charge, type PoolCharge } from './limit-charge.ts';
import {
  covers,
  exceededKey,
  type LimitRefusal,
  type LimitScope,
  refusal,
  remainingOf,
} from './limit-scope.ts';

function less(remaining: Limits, charge: Charge): Limits {
  const out: Record<string, bigint> = {};
  for (const [name, left] of Object.entries(remaining)) out[name] = left - amountOf(charge, name);
  return out;
}

function more(remaining: Limits, charge: Charge): Limits {
  const out: Record<string, bigint> = {};
  for (const [name, left] of Object.entries(remaining)) out[name] = left + amountOf(charge, name);
  return out;
}

interface Entry {
  readonly scope: LimitScope;
  remaining: Limits;
}

export class LimitBudget {
  private readonly entries: readonly Entry[];

  /** `charges` are the nodes and claims that exist already, each counted against its pool. */
  constructor(scopes: readonly LimitScope[], charges: readonly PoolCharge[]) {
    this.entries = scopes.map((scope) => ({ scope, remaining: remainingOf(scope, charges) }));
  }

  isLimited(nodePool: string): boolean {
    return this.entries.some((e) => covers(e.scope, nodePool));
  }

  allows(nodePool: string, charge: Charge): boolean {
    return this.of(nodePool).every((e) => exceededKey(charge, e.remaining) === undefined);
  }

  /** Takes a new claim's charge from every limit over its pool. */
  take(nodePool: string, charge: Charge): void {
    for (const entry of this.of(nodePool)) entry.remaining = less(entry.remaining, charge);
  }

  /**
   * A claim of the pool growing from one charge to another (a pod made its cheapest option a
   * larger one): takes the difference if every limit has room for it, else changes nothing.
   */
  grow(nodePool: string, from: Charge, to: Charge): boolean {
    const entries = this.of(nodePool);
    const short = entries.some(({ remaining }) =>
      Object.entries(remaining).some(([name, left]) => {
        const growth = amountOf(to, name) - amountOf(from, name);
        return growth > 0n && growth > left;
      }),
    );
    if (short) return false;
    for (const entry of entries) entry.remaining = more(less(entry.remaining, to), from);
    return true;
  }

  /**
   * Why none of `options` fits: the limit that even the smallest of them would pass, or else
   * the first limit the cheapest option passes. Undefined when one fits after all.
   */
  refusal(nodePool: string, options: readonly Charge[]): LimitRefusal | undefined {
    const entries = this.of(nodePool);
    for (const { scope, remaining } of entries) {
      for (const name in remaining) {
        const smallest = options.reduce(
          (min, c) => (amountOf(c, name) < min ? amountOf(c, name) : min),
          amountOf(options[0] ?? {}, name),
        );
        if (smallest > (remaining[name] ?? 0n)) return refusal(scope, name, remaining);
      }
    }
    for (const { scope, remaining } of entries) {
      const name = options[0] === undefined ? undefined : exceededKey(options[0], remaining);
      if (name !== undefined) return refusal(scope, name, remaining);
    }
    return undefined;
  }

  private of(nodePool: string): Entry[] {
    return this.entries.filter((e) => covers(e.scope, nodePool));
  }
}
