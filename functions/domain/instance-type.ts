/** Instance types and their offerings (zone × capacity type), as the scheduler consumes them. */
import type { CapacityReservationType } from './capacity-reservation.ts';
import { type CapacityType, Label } from './labels.ts';
import type { PlacementGroup } from './placement-group.ts';
import type { Requirements } from './requirements/requirements.ts';
import type { Resources } from './resources.ts';

export interface Offering {
  readonly zone: string;
  readonly zoneId?: string;
  readonly capacityType: CapacityType;
  /** USD per hour (an estimate for spot until live prices are known). */
  readonly pricePerHour: number;
  /** False while the offering is marked unavailable (capacity error TTL, no capacity). */
  readonly available: boolean;
  /** A reserved offering's reservation: one offering per reservation (capacity-reservation-id). */
  readonly reservationId?: string;
  readonly reservationType?: CapacityReservationType;
  readonly reservationInterruptible?: boolean;
  /**
   * Instances the reservation can still take, as last counted; absent where nobody counted
   * (a reservation read from a dump's status). The scheduler fills no reservation past it.
   */
  readonly reservationCapacity?: number;
  /** The partition of the class's partition placement group it launches into (`1` …). */
  readonly partition?: string;
  /** A NodeOverlay set the price: the launch then asks EC2 to prefer offerings by it. */
  readonly priceOverlaid?: boolean;
}

export interface InstanceType {
  readonly name: string;
  /**
   * What a node of this type will satisfy: well-known labels (arch, os, instance-type,
   * instance-* …) plus `topology.kubernetes.io/zone` and `karpenter.sh/capacity-type` over
   * its offerings.
   */
  readonly requirements: Requirements;
  readonly offerings: readonly Offering[];
  readonly capacity: Resources;
  /** kube-reserved + system-reserved + eviction threshold. */
  readonly overhead: Resources;
  readonly allocatable: Resources;
  /** A NodeOverlay added extended resources to the capacity and allocatable. */
  readonly capacityOverlaid?: boolean;
  /**
   * The placement group the class launches the type into (its `placement-group-id` requirement
   * names it): a cluster or spread group bounds the zones a plan may use (placement-ledger.ts).
   */
  readonly placementGroup?: PlacementGroup;
}

/** Capacity types in the order Karpenter prefers them when prices tie. */
export const CAPACITY_TYPE_ORDER: readonly CapacityType[] = ['reserved', 'spot', 'on-demand'];

/**
 * Labels of the reservation an instance launched into, never of its type: a type with one
 * reservation also launches as spot or on-demand (aws: pkg/cloudprovider/cloudprovider.go,
 * `instanceToNodeClaim`).
 */
export const RESERVATION_LABELS: ReadonlySet<string> = new Set([
  Label.capacityReservationId,
  Label.capacityReservationType,
  Label.capacityReservationInterruptible,
]);

/**
 * Each type's labels, worked out once: every planned claim is labelled from its cheapest type,
 * and instance types are kept across plans and passes.
 */
const labelsByType = new WeakMap<InstanceType, Readonly<Record<string, string>>>();

/** The labels of the instance type itself: every well-known label it has exactly one value for. */
export function instanceTypeLabels(it: InstanceType): Readonly<Record<string, string>> {
  let labels = labelsByType.get(it);
  if (labels === undefined) {
    labels = Object.freeze(singleValued(it.requirements));
    labelsByType.set(it, labels);
  }
  return labels;
}

function singleValued(requirements: Requirements): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, req] of requirements) {
    if (req.complement || req.values.size !== 1 || RESERVATION_LABELS.has(key)) continue;
    for (const value of req.values) labels[key] = value;
  }
  return labels;
}
