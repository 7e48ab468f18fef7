/**
 * How many more instances each offering can fill. Unlimited unless set: the capacity-errors
 * scenario exhausts the cheapest offerings, tests set exact counts.
 */
import { type OfferingKey, offeringId } from '../../functions/domain/state/unavailable-offering.ts';

export class CapacityPools {
  readonly #left = new Map<string, number>();

  set(offering: OfferingKey, count: number): void {
    this.#left.set(offeringId(offering), Math.max(0, count));
  }

  has(offering: OfferingKey): boolean {
    return (this.#left.get(offeringId(offering)) ?? Number.POSITIVE_INFINITY) > 0;
  }

  take(offering: OfferingKey): void {
    const id = offeringId(offering);
    const left = this.#left.get(id);
    if (left !== undefined) this.#left.set(id, left - 1);
  }

  give(offering: OfferingKey): void {
    const id = offeringId(offering);
    const left = this.#left.get(id);
    if (left !== undefined) this.#left.set(id, left + 1);
  }
}
