/**
 * An offering EC2 recently could not fill (a capacity error or a spot interruption). The
 * planner treats it as unavailable until it expires, then tries it again (Karpenter: 3 minutes).
 * A reserved offering is one reservation's: a full reservation leaves the type's other
 * reservations in the zone available, as Karpenter marks the reservation rather than the
 * offering (aws: pkg/providers/instance/instance.go `updateUnavailableOfferingsCache`,
 * pkg/providers/capacityreservation/types.go `MarkUnavailable`).
 */
import type { CapacityType } from '../labels.ts';
import { compareText } from './order.ts';

/** One instance type in one zone with one capacity type; reserved, in one reservation. */
export interface OfferingKey {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** The reservation of a reserved offering. */
  readonly reservationId?: string;
}

export interface UnavailableOffering extends OfferingKey {
  /** ISO-8601 instant after which the offering is tried again. */
  readonly expiresAt: string;
}

/**
 * A stable, unique text form: `instanceType/zone/capacityType`, and a reserved offering's
 * reservation after it (`m5.large/us-east-1a/reserved/cr-0123`).
 */
export function offeringId(offering: OfferingKey): string {
  const id = `${offering.instanceType}/${offering.zone}/${offering.capacityType}`;
  return offering.reservationId === undefined ? id : `${id}/${offering.reservationId}`;
}

/** Offerings in a stable order: instance type, then zone, then capacity type, then reservation. */
export function byOffering(a: OfferingKey, b: OfferingKey): number {
  return (
    compareText(a.instanceType, b.instanceType) ||
    compareText(a.zone, b.zone) ||
    compareText(a.capacityType, b.capacityType) ||
    compareText(a.reservationId ?? '', b.reservationId ?? '')
  );
}
