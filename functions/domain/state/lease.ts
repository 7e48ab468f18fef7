/**
 * The one-writer lease (docs/design.md §1.2 "one writer per cluster"). A holder acquires it for a
 * while; every acquisition gets a fencing token larger than any before, and writes that matter
 * carry the token so that a holder who lost the lease (paused past its expiry while another took
 * it) cannot overwrite the newer holder's work.
 */
import { isLive } from './expiry.ts';

/**
 * The lease record as stored. The token survives release, so it never goes backwards; so does
 * the time of the last acquisition.
 */
export interface Lease {
  readonly holder?: string;
  readonly fencingToken: number;
  readonly expiresAt?: string;
  /** ISO-8601: when the lease was last acquired. */
  readonly acquiredAt?: string;
}

/** What a successful acquisition hands out. */
export interface LeaseGrant {
  readonly holder: string;
  readonly fencingToken: number;
  readonly expiresAt: string;
  /**
   * ISO-8601: when the lease was acquired before this acquisition, by this holder or another:
   * the start of the pass before, which a pass counts pod transitions from (pod-startup.ts).
   * Absent at the first acquisition.
   */
  readonly previousAcquiredAt?: string;
}

/** The proof a fenced write carries; a LeaseGrant is one. */
export interface Fence {
  readonly fencingToken: number;
}

/** Whether `holder` may take the lease at `now`: it is free, expired, or already its own. */
export function canAcquire(lease: Lease | undefined, holder: string, now: Date): boolean {
  if (lease?.holder === undefined || lease.holder === holder) return true;
  return lease.expiresAt === undefined || !isLive(lease.expiresAt, now);
}

/**
 * Whether a write fenced with `fence` may proceed: the token is the latest one handed out and
 * has not been released. An expired but untaken lease still admits its holder's writes, since
 * nobody else can have written in between.
 */
export function admitsFence(lease: Lease | undefined, fence: Fence): boolean {
  return lease?.holder !== undefined && lease.fencingToken === fence.fencingToken;
}

/**
 * Whether `grant` still holds the lease at `now`: nobody has taken or released it since, and it
 * has not expired, so nobody can take it before the holder's next step.
 */
export function isHeldBy(lease: Lease | undefined, grant: LeaseGrant, now: Date): boolean {
  return (
    lease?.holder === grant.holder &&
    lease.fencingToken === grant.fencingToken &&
    lease.expiresAt !== undefined &&
    isLive(lease.expiresAt, now)
  );
}
