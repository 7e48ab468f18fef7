/**
 * An offering EC2 recently could not fill (a capacity error or a spot interruption). The
 * planner treats it as unavailable until it expires, then tries it again (Karpenter: 3 minutes).
 */
import type { CapacityType } from '../labels.ts';
import { compareText } from './order.ts';

/** One instance type in one zone with one capacity type. */
export interface OfferingKey {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
}

export interface UnavailableOffering extends OfferingKey {
  /** ISO-8601 instant after which the offering is tried again. */
  readonly expiresAt: string;
}

/** A stable, unique text form: `instanceType/zone/capacityType`. */
export function offeringId(offering: OfferingKey): string {
  return `${offering.instanceType}/${offering.zone}/${offering.capacityType}`;
}

/** Offerings in a stable order: instance type, then zone, then capacity type. */
export function byOffering(a: OfferingKey, b: OfferingKey): number {
  return (
    compareText(a.instanceType, b.instanceType) ||
    compareText(a.zone, b.zone) ||
    compareText(a.capacityType, b.capacityType)
  );
}
