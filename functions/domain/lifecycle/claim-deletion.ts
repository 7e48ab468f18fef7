/**
 * Marking a claim for deletion (docs/design.md §4.2: `Disrupting` with a reason): the decision,
 * when it was taken, and — from the NodePool's terminationGracePeriod — when its pods stop being
 * asked to leave and are deleted instead (core: the nodeclaim-termination-timestamp annotation).
 */
import { parseDuration } from '../duration.ts';
import type { NodePool } from '../node-pool.ts';
import {
  type ClaimDisruption,
  NodeClaimPhase,
  type NodeClaimRecord,
} from '../state/node-claim-record.ts';

/** Phases of a claim already on its way out: marking it again changes nothing. */
const GOING: ReadonlySet<string> = new Set([
  NodeClaimPhase.disrupting,
  NodeClaimPhase.draining,
  NodeClaimPhase.terminating,
]);

export function isGoing(claim: NodeClaimRecord): boolean {
  return GOING.has(claim.phase);
}

export function claimDisruption(
  reason: string,
  message: string,
  now: Date,
  pool: NodePool | undefined,
): ClaimDisruption {
  const grace = pool?.spec.template.spec.terminationGracePeriod;
  const graceMs = grace === undefined ? undefined : parseDuration(grace);
  const decidedAt = now.toISOString();
  return graceMs === undefined
    ? { reason, message, decidedAt }
    : { reason, message, decidedAt, terminateBy: new Date(now.getTime() + graceMs).toISOString() };
}

/**
 * A forceful deletion: its pods are deleted at once rather than evicted, whatever the pool's
 * terminationGracePeriod (core: node/health/controller.go `annotateTerminationGracePeriod`
 * stamps the termination timestamp with the time of the decision).
 */
export function forcefulDisruption(reason: string, message: string, now: Date): ClaimDisruption {
  const decidedAt = now.toISOString();
  return { reason, message, decidedAt, terminateBy: decidedAt };
}

/** The claim marked for deletion; undefined when it already is. */
export function markedForDeletion(
  claim: NodeClaimRecord,
  disruption: ClaimDisruption,
): NodeClaimRecord | undefined {
  if (isGoing(claim)) return undefined;
  return {
    ...claim,
    phase: NodeClaimPhase.disrupting,
    disruption,
    timestamps: { ...claim.timestamps, [NodeClaimPhase.disrupting]: disruption.decidedAt },
  };
}
