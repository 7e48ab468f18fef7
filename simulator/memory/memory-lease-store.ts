/**
 * The one-writer lease held in memory, with the DynamoDB adapter's rules (domain `canAcquire`,
 * `admitsFence`). The claim store asks it to check fences, as the DynamoDB adapter checks the
 * lease item inside the same transaction as the claim write.
 */
import { expiresAt } from '../../functions/domain/state/expiry.ts';
import {
  admitsFence,
  canAcquire,
  type Fence,
  isHeldBy,
  type Lease,
  type LeaseGrant,
} from '../../functions/domain/state/lease.ts';
import { ConflictError } from '../../functions/ports/errors.ts';
import type { LeaseStore } from '../../functions/ports/state-store.ts';

export class MemoryLeaseStore implements LeaseStore {
  #lease: Lease | undefined;

  async acquire(holder: string, now: Date, ttlSeconds: number): Promise<LeaseGrant | undefined> {
    const expiry = expiresAt(now, ttlSeconds);
    if (!canAcquire(this.#lease, holder, now)) return undefined;
    const previous = this.#lease?.acquiredAt;
    const fencingToken = (this.#lease?.fencingToken ?? 0) + 1;
    this.#lease = { holder, fencingToken, expiresAt: expiry, acquiredAt: now.toISOString() };
    return {
      holder,
      fencingToken,
      expiresAt: expiry,
      ...(previous === undefined ? {} : { previousAcquiredAt: previous }),
    };
  }

  async renew(grant: LeaseGrant, now: Date, ttlSeconds: number): Promise<LeaseGrant> {
    const expiry = expiresAt(now, ttlSeconds);
    if (!this.#isHeldBy(grant)) {
      throw new ConflictError(
        `renewing lease ${grant.fencingToken} for ${grant.holder}: it was released or taken since`,
      );
    }
    const renewed = { ...grant, expiresAt: expiry };
    this.#lease = { ...this.#lease, fencingToken: grant.fencingToken, expiresAt: expiry };
    return { ...renewed };
  }

  async isHeld(grant: LeaseGrant, now: Date): Promise<boolean> {
    return isHeldBy(this.#lease, grant, now);
  }

  async release(grant: LeaseGrant): Promise<void> {
    if (!this.#isHeldBy(grant)) return;
    const acquiredAt = this.#lease?.acquiredAt;
    this.#lease = {
      fencingToken: grant.fencingToken,
      ...(acquiredAt === undefined ? {} : { acquiredAt }),
    };
  }

  /** Rejects a write whose fence is stale; a write without a fence is not fenced. */
  checkFence(fence: Fence | undefined, doing: string): void {
    if (fence === undefined || admitsFence(this.#lease, fence)) return;
    throw new ConflictError(`${doing}: fencing token ${fence.fencingToken} is stale`);
  }

  #isHeldBy(grant: LeaseGrant): boolean {
    return this.#lease?.holder === grant.holder && this.#lease.fencingToken === grant.fencingToken;
  }
}
