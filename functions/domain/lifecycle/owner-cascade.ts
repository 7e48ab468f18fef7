/**
 * Claims outlive no NodePool (core: a NodeClaim's owner reference to its NodePool, whose garbage
 * collection deletes the claim, and its finalizer drains the node first). Nodesmith keeps no
 * owner references, so each pass finds the claims whose NodePool is gone and marks them for
 * deletion itself: a claim written while its pool was being deleted, or left unmarked by an API
 * call that died after the delete, is drained and terminated like any other, never stranded.
 */
import type { NodePool } from '../node-pool.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { isGoing } from './claim-deletion.ts';

/** The claims not yet going whose NodePool no longer exists, in the order given. */
export function claimsOfDeletedPools(
  claims: readonly NodeClaimRecord[],
  pools: readonly NodePool[],
): NodeClaimRecord[] {
  const existing = new Set(pools.map((p) => p.metadata.name));
  return claims.filter((c) => !existing.has(c.nodePool) && !isGoing(c));
}
