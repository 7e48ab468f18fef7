/**
 * The account's capacity reservations: what DescribeCapacityReservations lists and a targeted
 * launch fills. A reservation holds `count` instances; those running in it are counted from the
 * instances, so a terminated one gives its place back at once.
 */
import {
  type CapacityReservation,
  type CapacityReservationSelectorTerm,
  reservationState,
} from '../../functions/domain/capacity-reservation.ts';

export interface SimulatedReservation {
  readonly id: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly count: number;
  readonly reservationType?: CapacityReservation['reservationType'];
  readonly instanceMatchCriteria?: CapacityReservation['instanceMatchCriteria'];
  readonly ownerId?: string;
  readonly tags?: Readonly<Record<string, string>>;
  /** ISO-8601; a capacity block's end. */
  readonly endTime?: string;
}

export const SIMULATED_ACCOUNT = '111122223333';

function tagsMatch(
  wanted: Readonly<Record<string, string>>,
  tags: Readonly<Record<string, string>>,
) {
  return Object.entries(wanted).every(([k, v]) => (v === '*' ? k in tags : tags[k] === v));
}

/** Whether a term selects the reservation, as EC2's filters would (the adapter's queries). */
export function selects(term: CapacityReservationSelectorTerm, r: SimulatedReservation): boolean {
  if (term.id !== undefined) return term.id === r.id;
  if (term.ownerID !== undefined && term.ownerID !== (r.ownerId ?? SIMULATED_ACCOUNT)) return false;
  const criteria = r.instanceMatchCriteria ?? 'targeted';
  if (term.instanceMatchCriteria !== undefined && term.instanceMatchCriteria !== criteria)
    return false;
  return tagsMatch(term.tags ?? {}, r.tags ?? {});
}

/** The reservation as the class status records it at `now`. */
export function asStatus(r: SimulatedReservation, now: Date): CapacityReservation {
  const reservation = {
    id: r.id,
    instanceType: r.instanceType,
    availabilityZone: r.zone,
    ownerID: r.ownerId ?? SIMULATED_ACCOUNT,
    instanceMatchCriteria: r.instanceMatchCriteria ?? 'targeted',
    reservationType: r.reservationType ?? 'default',
    ...(r.endTime === undefined ? {} : { endTime: r.endTime }),
    interruptible: false,
  };
  return { ...reservation, state: reservationState(reservation, now) };
}

/** Active and not ended: what the describe with `state=active` lists. */
export function isActive(r: SimulatedReservation, now: Date): boolean {
  return r.endTime === undefined || Date.parse(r.endTime) > now.getTime();
}
