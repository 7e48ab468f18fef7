/** Idempotency keys in a Map; a key whose expiry has passed counts as new, as in DynamoDB. */
import type { EventSeen } from '../../functions/domain/state/event-seen.ts';
import { expiresAt, isLive } from '../../functions/domain/state/expiry.ts';
import type { EventsSeenStore } from '../../functions/ports/state-store.ts';

export class MemoryEventsSeenStore implements EventsSeenStore {
  readonly #seen = new Map<string, EventSeen>();

  async recordOnce(key: string, now: Date, ttlSeconds: number): Promise<boolean> {
    const seen: EventSeen = { key, expiresAt: expiresAt(now, ttlSeconds) };
    const earlier = this.#seen.get(key);
    if (earlier !== undefined && isLive(earlier.expiresAt, now)) return false;
    this.#seen.set(key, seen);
    return true;
  }
}
