/**
 * What each capacity reservation can still take while one plan is made (core:
 * pkg/controllers/provisioning/scheduling/reservationmanager.go): every claim planned reserved
 * takes one instance of the reservation it is pinned to, and a reservation with none left is
 * offered to no later claim. A reservation offered with different counts (pools that resolved it
 * at different times) keeps the least; one nobody counted is not bounded.
 */
import type { InstanceType } from '../instance-type.ts';

export class ReservationLedger {
  readonly #remaining = new Map<string, number>();

  /** Counts the reserved offerings of the types given. */
  constructor(instanceTypes: Iterable<InstanceType>) {
    for (const it of instanceTypes) {
      for (const o of it.offerings) {
        if (o.reservationId === undefined || o.reservationCapacity === undefined) continue;
        const known = this.#remaining.get(o.reservationId);
        if (known === undefined || o.reservationCapacity < known)
          this.#remaining.set(o.reservationId, o.reservationCapacity);
      }
    }
  }

  /** Reservations with nothing left: no claim of this plan may be pinned to them. */
  exhausted(): string[] {
    return [...this.#remaining].flatMap(([id, left]) => (left > 0 ? [] : [id])).sort();
  }

  /** One instance of the reservation goes to a planned claim. */
  take(reservationId: string): void {
    const left = this.#remaining.get(reservationId);
    if (left !== undefined) this.#remaining.set(reservationId, Math.max(left - 1, 0));
  }
}
