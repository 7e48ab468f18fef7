/**
 * What each capacity reservation can still take while one plan is made (core:
 * pkg/controllers/provisioning/scheduling/reservationmanager.go): every claim planned reserved
 * takes one instance of the reservation it is pinned to, and a reservation with none left is
 * offered to no later claim. A reservation offered with different counts (pools that resolved it
 * at different times) keeps the least; one nobody counted is not bounded.
 */
import type { InstanceType } from '../instance-type.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';

/** The least count each reservation is offered with among the types given. */
function leastCounts(instanceTypes: Iterable<InstanceType>): Map<string, number> {
  const least = new Map<string, number>();
  for (const it of instanceTypes) {
    for (const o of it.offerings) {
      if (o.reservationId === undefined || o.reservationCapacity === undefined) continue;
      const known = least.get(o.reservationId);
      if (known === undefined || o.reservationCapacity < known)
        least.set(o.reservationId, o.reservationCapacity);
    }
  }
  return least;
}

/**
 * Each template's counts, worked out once: a template's options never change, and the same
 * templates serve plan after plan (template-cache.ts), each of which would otherwise walk every
 * offering of every type the pool allows.
 */
const countsByTemplate = new WeakMap<NodeClaimTemplate, ReadonlyMap<string, number>>();

function templateCounts(template: NodeClaimTemplate): ReadonlyMap<string, number> {
  let counts = countsByTemplate.get(template);
  if (counts === undefined) {
    counts = leastCounts(template.options.map((option) => option.instanceType));
    countsByTemplate.set(template, counts);
  }
  return counts;
}

export class ReservationLedger {
  readonly #remaining = new Map<string, number>();

  /** Counts the reserved offerings of the templates' instance types. */
  constructor(templates: Iterable<NodeClaimTemplate>) {
    for (const template of templates) {
      for (const [id, count] of templateCounts(template)) {
        const known = this.#remaining.get(id);
        if (known === undefined || count < known) this.#remaining.set(id, count);
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
