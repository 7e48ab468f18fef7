/** Unavailable offerings in a Map; expired entries are never listed and are dropped on write. */
import { expiresAt, isLive } from '../../functions/domain/state/expiry.ts';
import {
  byOffering,
  type OfferingKey,
  offeringId,
  type UnavailableOffering,
} from '../../functions/domain/state/unavailable-offering.ts';
import type { UnavailableOfferingStore } from '../../functions/ports/state-store.ts';

export class MemoryUnavailableOfferingStore implements UnavailableOfferingStore {
  readonly #offerings = new Map<string, UnavailableOffering>();

  async mark(offering: OfferingKey, now: Date, ttlSeconds: number): Promise<UnavailableOffering> {
    const marked: UnavailableOffering = {
      instanceType: offering.instanceType,
      zone: offering.zone,
      capacityType: offering.capacityType,
      ...(offering.reservationId === undefined ? {} : { reservationId: offering.reservationId }),
      expiresAt: expiresAt(now, ttlSeconds),
    };
    for (const [id, stored] of this.#offerings) {
      if (!isLive(stored.expiresAt, now)) this.#offerings.delete(id);
    }
    this.#offerings.set(offeringId(marked), marked);
    return { ...marked };
  }

  async listLive(now: Date): Promise<readonly UnavailableOffering[]> {
    return [...this.#offerings.values()]
      .filter((offering) => isLive(offering.expiresAt, now))
      .sort(byOffering)
      .map((offering) => ({ ...offering }));
  }
}
