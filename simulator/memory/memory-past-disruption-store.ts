/** Ended disruptions in a Map by claim; expired entries are never listed and are dropped on write. */
import { expiresAt, isLive } from '../../functions/domain/state/expiry.ts';
import { byEnd, type PastDisruption } from '../../functions/domain/state/past-disruption.ts';
import type { PastDisruptionStore } from '../../functions/ports/state-store.ts';

export class MemoryPastDisruptionStore implements PastDisruptionStore {
  readonly #ended = new Map<string, PastDisruption>();

  async record(
    ended: Omit<PastDisruption, 'expiresAt'>,
    now: Date,
    ttlSeconds: number,
  ): Promise<void> {
    const expiry = expiresAt(now, ttlSeconds);
    for (const [claim, stored] of this.#ended) {
      if (!isLive(stored.expiresAt, now)) this.#ended.delete(claim);
    }
    this.#ended.set(ended.nodeClaim, { ...ended, expiresAt: expiry });
  }

  async listRecent(now: Date): Promise<readonly PastDisruption[]> {
    return [...this.#ended.values()]
      .filter((ended) => isLive(ended.expiresAt, now))
      .sort(byEnd)
      .map((ended) => ({ ...ended }));
  }
}
