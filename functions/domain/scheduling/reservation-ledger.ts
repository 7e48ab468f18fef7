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
  /** The least count each reservation is offered with among the templates counted. */
  readonly #offered = new Map<string, number>();
  /** Instances taken from each reservation, counted or not yet. */
  readonly #taken = new Map<string, number>();

  /** Counts the reserved offerings of the templates' instance types. */
  constructor(templates: Iterable<NodeClaimTemplate> = []) {
    for (const template of templates) this.count(template);
  }

  /**
   * Counts the reserved offerings of one more template's instance types: a plan that opens its
   * templates one at a time (a static pool's, core: static/provisioning/controller.go) counts
   * each before choosing from it. Counting a template again changes nothing.
   */
  count(template: NodeClaimTemplate): void {
    for (const [id, count] of templateCounts(template)) {
      const known = this.#offered.get(id);
      if (known === undefined || count < known) this.#offered.set(id, count);
    }
  }

  /** Reservations with nothing left: no claim of this plan may be pinned to them. */
  exhausted(): string[] {
    return [...this.#offered]
      .flatMap(([id, offered]) => (offered - (this.#taken.get(id) ?? 0) > 0 ? [] : [id]))
      .sort();
  }

  /**
   * One instance of the reservation goes to a planned claim, or went to a launch the counts do
   * not show yet (one made earlier in the same pass).
   */
  take(reservationId: string): void {
    this.#taken.set(reservationId, (this.#taken.get(reservationId) ?? 0) + 1);
  }
}
