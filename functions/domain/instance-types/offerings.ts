/**
 * Offerings of one instance type: one per zone and capacity type, each with a price and an
 * availability (aws: pkg/providers/instancetype, `createOfferings`). Reserved offerings, one per
 * capacity reservation, come from reserved-offerings.ts.
 */
import type { Offering } from '../instance-type.ts';
import type { CapacityType } from '../labels.ts';
import { offeringId } from '../state/unavailable-offering.ts';

/** Spot price per hour by instance type, then by zone. */
export type SpotPrices = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface OfferingZone {
  readonly zone: string;
  readonly zoneId?: string;
}

/** Capacity types offered for every zone, in Karpenter's preference order. */
export const OFFERED_CAPACITY_TYPES: readonly CapacityType[] = ['spot', 'on-demand'];

/**
 * The key under which an offering is marked unavailable: `m5.large/us-east-1a/spot`, a reserved
 * one with its reservation (`offeringId`).
 */
export function offeringKey(
  instanceType: string,
  zone: string,
  capacityType: CapacityType,
  reservationId?: string,
): string {
  return offeringId({
    instanceType,
    zone,
    capacityType,
    ...(reservationId === undefined ? {} : { reservationId }),
  });
}

export interface OfferingsInput {
  readonly instanceType: string;
  readonly zones: readonly OfferingZone[];
  readonly onDemandPrice: number | undefined;
  /** Zone → spot price of this type, when live prices are known. */
  readonly spotPrices: ReadonlyMap<string, number> | undefined;
  readonly unavailable: ReadonlySet<string>;
}

/**
 * A type without an on-demand price in the region is treated as not sold there: no offerings.
 * Spot offerings without a spot price use the on-demand price until live prices are known.
 */
export function buildOfferings(input: OfferingsInput): Offering[] {
  const { instanceType, onDemandPrice, spotPrices, unavailable } = input;
  if (onDemandPrice === undefined) return [];
  const offerings: Offering[] = [];
  for (const { zone, zoneId } of input.zones) {
    for (const capacityType of OFFERED_CAPACITY_TYPES) {
      const pricePerHour =
        capacityType === 'spot' ? (spotPrices?.get(zone) ?? onDemandPrice) : onDemandPrice;
      const available =
        unavailable.size === 0 || !unavailable.has(offeringKey(instanceType, zone, capacityType));
      offerings.push(
        zoneId === undefined
          ? { zone, capacityType, pricePerHour, available }
          : { zone, zoneId, capacityType, pricePerHour, available },
      );
    }
  }
  return offerings;
}

/**
 * One offering per partition of a partition placement group, so the scheduler can choose a
 * partition as it chooses a zone (aws: pkg/providers/instancetype/offering/
 * placement_group_resolver.go).
 */
export function perPartition(offerings: Offering[], partitions: readonly string[]): Offering[] {
  if (partitions.length === 0) return offerings;
  return offerings.flatMap((offering) =>
    partitions.map((partition) => ({ ...offering, partition })),
  );
}
