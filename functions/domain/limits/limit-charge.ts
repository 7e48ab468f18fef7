/**
 * What one node counts against limits, in the units limits are parsed in (see `parseLimits`):
 * one node, its capacity (CPU in millicores) and its price in micro-dollars per hour.
 */
import type { Resources } from '../resources.ts';
import { HOURLY_COST, microDollars } from './hourly-cost.ts';

export type Charge = Readonly<Record<string, number>>;

/** A node's charge as one record, owned by a NodePool. */
export interface PoolCharge {
  readonly nodePool: string;
  readonly charge: Charge;
}

export const NODES = 'nodes';

export function chargeOf(capacity: Resources, pricePerHour: number): Charge {
  return { ...capacity, [NODES]: 1, [HOURLY_COST]: microDollars(pricePerHour) };
}

/** The charge's amount of one limited key, in whole units. */
export function amountOf(charge: Charge, name: string): bigint {
  return BigInt(Math.ceil(charge[name] ?? 0));
}

/** The largest of each key: what a claim may become when it can launch as any of several options. */
export function largest(charges: readonly Charge[]): Charge {
  const out: Record<string, number> = {};
  for (const charge of charges) {
    for (const [name, amount] of Object.entries(charge))
      out[name] = Math.max(out[name] ?? 0, amount);
  }
  return out;
}
