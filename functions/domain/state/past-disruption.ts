/**
 * A disruption that has ended: the node went, for this reason. Kept for a day so `GET /v1/status`
 * can show what happened recently beside what is happening now.
 */
export interface PastDisruption {
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly nodeName?: string;
  /** Karpenter's reason (`Underutilized`, `Drifted`, `SpotInterrupted`, `NodePoolDeleted`, …). */
  readonly reason: string;
  readonly message: string;
  readonly decidedAt: string;
  /** When the claim was removed. */
  readonly endedAt: string;
  readonly expiresAt: string;
}

/** How long an ended disruption stays listed. */
export const PAST_DISRUPTION_TTL_SECONDS = 24 * 60 * 60;

/** Newest first. */
export function byEnd(a: PastDisruption, b: PastDisruption): number {
  return b.endedAt.localeCompare(a.endedAt) || a.nodeClaim.localeCompare(b.nodeClaim);
}
