/**
 * Which capacity an on-demand launch takes, as EC2 reads its launch template's
 * `CapacityReservationSpecification` (EC2 User Guide, "Capacity Reservations": targeted, open
 * and none, and `capacity-reservations-only`): a target puts the instance in that reservation or
 * nowhere; `capacity-reservations-only` never falls back to open capacity; `open`, EC2's default,
 * takes room in an active open reservation of the type and zone before open capacity; `none`
 * never uses a reservation. A capacity block needs its `capacity-block` market. Spot never runs in
 * a reservation.
 */
import type { RequestLaunchTemplateData } from '@aws-sdk/client-ec2';
import type { OfferingKey } from '../../../functions/domain/state/unavailable-offering.ts';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import { isActive, type SimulatedReservation } from '../../cloud/simulated-reservations.ts';

/** Where the launch goes, or why EC2 refuses it there. */
export type ReservationPlacement =
  | { readonly kind: 'open-capacity' }
  | {
      readonly kind: 'reservation';
      readonly reservation: SimulatedReservation;
      /** The template asked for reservations only, rather than finding room in an open one. */
      readonly requested: boolean;
    }
  | { readonly kind: 'refused'; readonly code: string; readonly message: string };

const OPEN_CAPACITY: ReservationPlacement = { kind: 'open-capacity' };

function fits(r: SimulatedReservation, offering: OfferingKey, ec2: SimulatedEc2): boolean {
  return (
    r.instanceType === offering.instanceType &&
    r.zone === offering.zone &&
    isActive(r, ec2.options.clock.now())
  );
}

function full(r: SimulatedReservation): ReservationPlacement {
  return {
    kind: 'refused',
    code: 'ReservationCapacityExceeded',
    message: `The requested number of instances exceeds the available capacity of Capacity Reservation ${r.id}.`,
  };
}

/** A targeted launch: into that reservation, with its market, or refused. */
function targeted(
  id: string,
  offering: OfferingKey,
  data: RequestLaunchTemplateData,
  ec2: SimulatedEc2,
): ReservationPlacement {
  const reservation = ec2.reservations.find((r) => r.id === id);
  if (reservation === undefined || !fits(reservation, offering, ec2)) {
    return {
      kind: 'refused',
      code: 'InsufficientInstanceCapacity',
      message: `Capacity Reservation ${id} cannot take a ${offering.instanceType} in ${offering.zone}.`,
    };
  }
  const block = (reservation.reservationType ?? 'default') === 'capacity-block';
  if (block !== (data.InstanceMarketOptions?.MarketType === 'capacity-block')) {
    return {
      kind: 'refused',
      code: 'InvalidParameterCombination',
      message: `Capacity Reservation ${id} needs the ${block ? 'capacity-block' : 'on-demand'} market.`,
    };
  }
  return ec2.availableIn(id) > 0
    ? { kind: 'reservation', reservation, requested: true }
    : full(reservation);
}

/** The first active open reservation of the type and zone with room, if any. */
function openReservation(offering: OfferingKey, ec2: SimulatedEc2) {
  return ec2.reservations.find(
    (r) =>
      (r.instanceMatchCriteria ?? 'targeted') === 'open' &&
      fits(r, offering, ec2) &&
      ec2.availableIn(r.id) > 0,
  );
}

export function reservationPlacement(
  offering: OfferingKey,
  data: RequestLaunchTemplateData,
  ec2: SimulatedEc2,
): ReservationPlacement {
  if (offering.capacityType === 'spot') return OPEN_CAPACITY;
  const specification = data.CapacityReservationSpecification ?? {};
  const target = specification.CapacityReservationTarget?.CapacityReservationId;
  if (target !== undefined) return targeted(target, offering, data, ec2);
  const preference = specification.CapacityReservationPreference ?? 'open';
  if (preference === 'none') return OPEN_CAPACITY;
  const open = openReservation(offering, ec2);
  const only = preference === 'capacity-reservations-only';
  if (open !== undefined) return { kind: 'reservation', reservation: open, requested: only };
  if (!only) return OPEN_CAPACITY;
  return {
    kind: 'refused',
    code: 'InsufficientInstanceCapacity',
    message: `No open Capacity Reservation has room for a ${offering.instanceType} in ${offering.zone}.`,
  };
}
