/**
 * The capacity reservations an EC2NodeClass selects, and how many instances each can still take
 * (aws: pkg/providers/capacityreservation/provider.go and types.go). Each term is one query: by
 * id, or by tags, owner and instance match criteria together, always for `active` reservations
 * only; results are cached a minute per query and those already past their end are dropped.
 *
 * The counts are EC2's `AvailableInstanceCount` as of the last describe, less the launches made
 * since (EC2's count lags them), and zero after EC2 refused a launch into the reservation: a
 * reservation is never offered for more than it was last seen to hold.
 */
import {
  type DescribeCapacityReservationsCommandInput,
  type CapacityReservation as Ec2CapacityReservation,
  type Filter,
  paginateDescribeCapacityReservations,
} from '@aws-sdk/client-ec2';
import type {
  CapacityReservation,
  CapacityReservationSelectorTerm,
} from '../../domain/capacity-reservation.ts';
import type { ReservationOffer } from '../../domain/instance-types/reserved-offerings.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Ec2Api, Now } from './clients.ts';
import { isNotFound, toPortError } from './errors.ts';
import { fromCapacityReservation } from './mappers.ts';
import { collect } from './pages.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { tagFilters } from './selector-filters.ts';

/** One DescribeCapacityReservations per term: by id, else by the term's other fields together. */
export function reservationQueries(
  terms: readonly CapacityReservationSelectorTerm[],
): DescribeCapacityReservationsCommandInput[] {
  const active: Filter = { Name: 'state', Values: ['active'] };
  return terms.flatMap((term) => {
    const queries: DescribeCapacityReservationsCommandInput[] = [];
    // MaxResults cannot be given with ids.
    if (term.id !== undefined)
      queries.push({ Filters: [active], CapacityReservationIds: [term.id] });
    if (term.tags !== undefined || term.instanceMatchCriteria !== undefined) {
      const filters: Filter[] = [active];
      if (term.ownerID !== undefined) filters.push({ Name: 'owner-id', Values: [term.ownerID] });
      filters.push(...tagFilters(term.tags));
      if (term.instanceMatchCriteria !== undefined)
        filters.push({ Name: 'instance-match-criteria', Values: [term.instanceMatchCriteria] });
      queries.push({ Filters: filters, MaxResults: 1000 });
    }
    return queries;
  });
}

interface Availability {
  count: number;
  readonly syncedAtMs: number;
}

export class CapacityReservationProvider {
  readonly #ec2: Ec2Api;
  readonly #now: Now;
  readonly #cache: TtlCache<readonly Ec2CapacityReservation[]>;
  readonly #available = new Map<string, Availability>();

  constructor(ec2: Ec2Api, now: Now) {
    this.#ec2 = ec2;
    this.#now = now;
    this.#cache = new TtlCache(now, RefreshInterval.capacityReservationsMs);
  }

  /** The reservations the terms select that have not ended, by id, as the class status holds them. */
  async list(terms: readonly CapacityReservationSelectorTerm[]): Promise<CapacityReservation[]> {
    const found = await Promise.all(reservationQueries(terms).map((query) => this.#query(query)));
    const now = this.#now();
    const byId = new Map<string, CapacityReservation>();
    for (const described of found.flat()) {
      const reservation = fromCapacityReservation(described, now);
      if (reservation !== undefined && !byId.has(reservation.id))
        byId.set(reservation.id, reservation);
    }
    return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The reservations with what each can still take. */
  async offers(terms: readonly CapacityReservationSelectorTerm[]): Promise<ReservationOffer[]> {
    const reservations = await this.list(terms);
    return reservations.map((reservation) => ({
      reservation,
      availableCount: this.#available.get(reservation.id)?.count ?? 0,
    }));
  }

  /** A launch into the reservation since the last describe takes one instance of its count. */
  markLaunched(reservationId: string): void {
    const entry = this.#available.get(reservationId);
    if (entry === undefined || entry.syncedAtMs > this.#now().getTime()) return;
    entry.count = Math.max(entry.count - 1, 0);
  }

  /** EC2 refused a launch into it for capacity: nothing more until it is described again. */
  markUnavailable(reservationId: string): void {
    const entry = this.#available.get(reservationId);
    if (entry !== undefined) entry.count = 0;
  }

  #query(query: DescribeCapacityReservationsCommandInput) {
    return this.#cache.getOrLoad(JSON.stringify(query), async () => {
      const described = await this.#describe(query);
      const syncedAtMs = this.#now().getTime();
      for (const r of described) {
        if (r.CapacityReservationId === undefined) continue;
        this.#available.set(r.CapacityReservationId, {
          count: r.AvailableInstanceCount ?? 0,
          syncedAtMs,
        });
      }
      return described;
    });
  }

  async #describe(query: DescribeCapacityReservationsCommandInput) {
    try {
      const pages = paginateDescribeCapacityReservations({ client: this.#ec2 }, query);
      return await collect(pages, (page) => page.CapacityReservations);
    } catch (err) {
      // Asked by id, EC2 answers NotFound for a reservation that is gone: it selects nothing.
      if (query.CapacityReservationIds !== undefined && isNotFound(err)) return [];
      throw toPortError(err, 'describing capacity reservations');
    }
  }
}
