/**
 * How a static NodePool's claims stand, as Karpenter's NodePoolState counts them (core:
 * pkg/controllers/state/statenodepool.go): active, being deleted, or pending disruption (the
 * candidate of a command whose replacement is on its way). Scaling, static drift and the pool's
 * `limits.nodes` are all judged on these three numbers.
 */

import { Label } from '../labels.ts';
import { isGoing } from '../lifecycle/claim-deletion.ts';
import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import type { NodePool } from '../node-pool.ts';
import { parseUnits } from '../quantity.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

export interface PoolNodeCount {
  readonly active: number;
  readonly deleting: number;
  readonly pendingDisruption: number;
}

export type ClaimStanding = keyof PoolNodeCount;

export const NO_NODES: PoolNodeCount = { active: 0, deleting: 0, pendingDisruption: 0 };

/** A stored claim: marked for deletion, replacing (its command launched), or active. */
export function recordStanding(claim: NodeClaimRecord): ClaimStanding {
  if (isGoing(claim)) return 'deleting';
  return claim.disruption?.stage === 'Replacing' ? 'pendingDisruption' : 'active';
}

function counted(count: PoolNodeCount, standing: ClaimStanding): PoolNodeCount {
  return { ...count, [standing]: count[standing] + 1 };
}

/** The stored claims counted per pool. */
export function recordCounts(claims: readonly NodeClaimRecord[]): Map<string, PoolNodeCount> {
  const out = new Map<string, PoolNodeCount>();
  for (const claim of claims)
    out.set(claim.nodePool, counted(out.get(claim.nodePool) ?? NO_NODES, recordStanding(claim)));
  return out;
}

/**
 * The snapshot's claims counted per pool: a deletion timestamp is deleting; a claim whose node
 * is already on its way out (a command's candidate, which the pass marks so) is pending
 * disruption.
 */
export function snapshotCounts(
  claims: readonly NodeClaim[],
  nodes: readonly Node[],
): Map<string, PoolNodeCount> {
  const going = new Set(nodes.filter((n) => n.deleting).map((n) => n.name));
  const out = new Map<string, PoolNodeCount>();
  for (const claim of claims) {
    const pool = claim.metadata.labels?.[Label.nodePool];
    if (pool === undefined) continue;
    const nodeName = claim.status?.nodeName;
    const standing: ClaimStanding =
      claim.metadata.deletionTimestamp !== undefined
        ? 'deleting'
        : nodeName !== undefined && going.has(nodeName)
          ? 'pendingDisruption'
          : 'active';
    out.set(pool, counted(out.get(pool) ?? NO_NODES, standing));
  }
  return out;
}

/** `limits.nodes`, the one limit a static pool may have; unbounded without it. */
export function nodeLimit(pool: NodePool): number {
  const limit = pool.spec.limits?.nodes;
  return limit === undefined ? Number.POSITIVE_INFINITY : parseUnits(limit);
}

/**
 * How many of `wanted` new nodes `limits.nodes` leaves room for, counting every claim the pool
 * has, active, deleting or pending disruption (core: NodePoolState.ReserveNodeCount).
 */
export function reservable(pool: NodePool, count: PoolNodeCount, wanted: number): number {
  const left = nodeLimit(pool) - (count.active + count.deleting + count.pendingDisruption);
  return Math.max(0, Math.min(wanted, left));
}
