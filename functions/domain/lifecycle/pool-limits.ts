/**
 * The limit check made again right before a claim is written (core provisioner.go `Create`):
 * the plan subtracted what it launched, and this re-check, against the claims the store holds
 * and those written since in the pass, keeps a pool inside `spec.limits` whatever the plan saw.
 */
import type { NodePool } from '../node-pool.ts';
import { parseLimits, type Resources } from '../resources.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

/** Whole units, as limits count them (Resources already hold CPU in millicores). */
function limitUnits(amount: number): bigint {
  return BigInt(Math.ceil(amount));
}

/** Why adding a node of `capacity` would take the pool past a limit, or undefined. */
export function limitExceeded(
  pool: NodePool,
  claims: readonly NodeClaimRecord[],
  capacity: Resources,
): string | undefined {
  if (pool.spec.limits === undefined) return undefined;
  const own = claims.filter((c) => c.nodePool === pool.metadata.name);
  for (const [name, limit] of Object.entries(parseLimits(pool.spec.limits))) {
    const used = own.reduce(
      (sum, c) => sum + (name === 'nodes' ? 1n : limitUnits(c.capacity?.[name] ?? 0)),
      0n,
    );
    const adding = name === 'nodes' ? 1n : limitUnits(capacity[name] ?? 0);
    if (used + adding > limit) {
      return `NodePool "${pool.metadata.name}" would exceed its ${name} limit`;
    }
  }
  return undefined;
}
