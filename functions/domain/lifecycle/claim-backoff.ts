/**
 * Backing off a claim whose action keeps failing, as controller-runtime's per-object rate limiter
 * backs off a NodeClaim that fails to reconcile: each failure in a row doubles the wait, up to a
 * cap, so one broken object costs one attempt now and then instead of one every pass, and the
 * rest of the cluster is acted on meanwhile. The wait is kept on the claim, so the next pass
 * (another invocation) honours it.
 */
import type { ClaimFailure, NodeClaimRecord } from '../state/node-claim-record.ts';

/** The first wait: the in-flight pass interval, so a passing hiccup costs one pass. */
export const CLAIM_BACKOFF_BASE_SECONDS = 10;
/** The longest wait between attempts (Karpenter's reconcilers cap theirs at minutes too). */
export const CLAIM_BACKOFF_CAP_SECONDS = 600;

/** The wait after the `attempts`-th failure in a row: 10 s, 20 s, 40 s, … up to the cap. */
export function backoffSeconds(attempts: number): number {
  const doublings = Math.min(Math.max(attempts - 1, 0), 16);
  return Math.min(CLAIM_BACKOFF_BASE_SECONDS * 2 ** doublings, CLAIM_BACKOFF_CAP_SECONDS);
}

/** The claim with one more failure of `action` recorded at `now`, and the wait it earned. */
export function withFailure(
  claim: NodeClaimRecord,
  action: string,
  message: string,
  now: Date,
): NodeClaimRecord {
  const attempts = (claim.failure?.attempts ?? 0) + 1;
  const failure: ClaimFailure = {
    action,
    message,
    attempts,
    failedAt: now.toISOString(),
    retryAt: new Date(now.getTime() + backoffSeconds(attempts) * 1000).toISOString(),
  };
  return { ...claim, failure };
}

/** The claim without its failure record: an action on it succeeded. */
export function withoutFailure(claim: NodeClaimRecord): NodeClaimRecord {
  const { failure: _done, ...rest } = claim;
  return rest;
}

/** Whether the claim is still waiting out its backoff at `now`. */
export function isBackingOff(claim: NodeClaimRecord, now: Date): boolean {
  return claim.failure !== undefined && claim.failure.retryAt > now.toISOString();
}
