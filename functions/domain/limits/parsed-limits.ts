import { parseMicrosExact, parseMillisExact, parseUnitsExact } from '../quantity.ts';
import { ResourceName } from '../resources.ts';
import { HOURLY_COST } from './hourly-cost.ts';

/**
 * Limits and what is left of them, exact: a NodePool may be limited to `8Ei` of memory (the
 * common way to write "no limit"), and its nodes' capacity summed against it must not round.
 * Compared with `Resources` amounts directly: JavaScript compares a number and a bigint exactly.
 */
export type Limits = Readonly<Record<string, bigint>>;

/**
 * Parses a limits ResourceList exactly: CPU in millicores, the hourly cost in micro-dollars,
 * `nodes` and everything else in whole units.
 */
export function parseLimits(list: Readonly<Record<string, string | number>>): Limits {
  const out: Record<string, bigint> = {};
  for (const [name, quantity] of Object.entries(list)) {
    out[name] =
      name === ResourceName.cpu
        ? parseMillisExact(quantity)
        : name === HOURLY_COST
          ? parseMicrosExact(quantity)
          : parseUnitsExact(quantity);
  }
  return out;
}
