/**
 * What the lifecycle and termination steps share (docs/design.md §3.5, §3.8): each action on a
 * claim writes the claim, removes it or leaves it as it was, and the step hands the pass the
 * claims as they stand afterwards, with what it recorded, decided and told the cluster.
 */
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { LifecycleRecord } from './pass-report.ts';

export interface ClaimStepOutcome {
  readonly records: readonly LifecycleRecord[];
  readonly decisions: readonly Decision[];
  readonly events: readonly ClusterEvent[];
  /** The claims as they stand after the step; removed ones are gone. */
  readonly claims: readonly NodeClaimRecord[];
}

/** What one action did to its claim: the version it wrote, or the name of the claim it removed. */
export interface ClaimChange {
  readonly claim?: NodeClaimRecord;
  readonly removed?: string;
}

/** The claims in their order, each written one at its new version and each removed one gone. */
export function claimsAfter(
  claims: readonly NodeClaimRecord[],
  changes: readonly ClaimChange[],
): NodeClaimRecord[] {
  const changed = new Map(
    changes.flatMap((c) => (c.claim ? [[c.claim.name, c.claim] as const] : [])),
  );
  const removed = new Set(changes.flatMap((c) => (c.removed ? [c.removed] : [])));
  return claims.filter((c) => !removed.has(c.name)).map((c) => changed.get(c.name) ?? c);
}
