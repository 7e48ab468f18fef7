/**
 * The reserved offerings of one instance type: one per capacity reservation of the type that the
 * EC2NodeClass resolved (aws: pkg/providers/instancetype/offering/reserved_capacity_resolver.go).
 * A reservation is already paid for, so its offering is priced at the on-demand price divided by
 * ten million: free beside any launch, yet still ordered by size for consolidation. It is
 * available while the reservation has room, is not expiring, lies in a zone the class's subnets
 * reach, and was not recently found full: that is the reservation's own, never its type's and
 * zone's (aws: instance/instance.go `updateUnavailableOfferingsCache`).
 */
import type { CapacityReservation } from '../capacity-reservation.ts';
import type { Offering } from '../instance-type.ts';
import { type OfferingZone, offeringKey } from './offerings.ts';

/** Karpenter's divisor: a reserved offering costs the on-demand price over this. */
export const RESERVED_PRICE_DIVISOR = 10_000_000;

/** A reservation with the instances it can still take, when counted. */
export interface ReservationOffer {
  readonly reservation: CapacityReservation;
  /** Absent when not counted (read from a dump): then no count bounds it. */
  readonly availableCount?: number;
}

export interface ReservedOfferingsInput {
  readonly instanceType: string;
  readonly reservations: readonly ReservationOffer[];
  /** The type's on-demand price; a reservation of an unpriced type still launches, at 0. */
  readonly onDemandPrice: number | undefined;
  readonly zones: readonly OfferingZone[];
  readonly unavailable: ReadonlySet<string>;
}

function reservedOffering(input: ReservedOfferingsInput, offer: ReservationOffer): Offering {
  const { reservation, availableCount } = offer;
  const zone = input.zones.find((z) => z.zone === reservation.availabilityZone);
  const available =
    zone !== undefined &&
    availableCount !== 0 &&
    reservation.state !== 'expiring' &&
    !input.unavailable.has(
      offeringKey(input.instanceType, reservation.availabilityZone, 'reserved', reservation.id),
    );
  return {
    zone: reservation.availabilityZone,
    ...(zone?.zoneId === undefined ? {} : { zoneId: zone.zoneId }),
    capacityType: 'reserved',
    pricePerHour: (input.onDemandPrice ?? 0) / RESERVED_PRICE_DIVISOR,
    available,
    reservationId: reservation.id,
    reservationType: reservation.reservationType,
    reservationInterruptible: reservation.interruptible ?? false,
    ...(availableCount === undefined ? {} : { reservationCapacity: availableCount }),
  };
}

export function reservedOfferings(input: ReservedOfferingsInput): Offering[] {
  return input.reservations
    .filter((offer) => offer.reservation.instanceType === input.instanceType)
    .map((offer) => reservedOffering(input, offer));
}
