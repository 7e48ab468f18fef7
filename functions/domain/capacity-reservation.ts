/**
 * An EC2 capacity reservation as an EC2NodeClass's status records it (aws:
 * pkg/apis/v1/ec2nodeclass_status.go, `CapacityReservation`): what the class's
 * `capacityReservationSelectorTerms` resolved to, and what reserved offerings are made of.
 */

/** `default` for an on-demand capacity reservation (ODCR), `capacity-block` for a capacity block. */
export type CapacityReservationType = 'default' | 'capacity-block';

/** Which launches EC2 lets into it: any matching one (`open`) or only those naming it. */
export type InstanceMatchCriteria = 'open' | 'targeted';

/** `expiring` once a capacity block is within EC2's reclaim window of its end. */
export type CapacityReservationState = 'active' | 'expiring';

export interface CapacityReservationSelectorTerm {
  readonly tags?: Readonly<Record<string, string>>;
  readonly id?: string;
  readonly ownerID?: string;
  readonly instanceMatchCriteria?: InstanceMatchCriteria;
}

export interface CapacityReservation {
  readonly id: string;
  readonly instanceType: string;
  readonly availabilityZone: string;
  readonly ownerID: string;
  readonly instanceMatchCriteria: InstanceMatchCriteria;
  readonly reservationType: CapacityReservationType;
  readonly state: CapacityReservationState;
  /** ISO-8601; absent for a reservation without an end date. */
  readonly endTime?: string;
  readonly interruptible?: boolean;
}

/**
 * EC2 starts reclaiming a capacity block's instances 30 minutes before its end; Karpenter counts
 * it expiring 40 minutes before, in line with EC2's interruption notice (aws:
 * ec2nodeclass_status.go `CapacityReservationFromEC2`, capacityreservation/expiration).
 */
export const CAPACITY_BLOCK_EXPIRATION_MS = 40 * 60_000;

/** Only a capacity block with an end time expires; anything else stays active to its end. */
export function reservationState(
  reservation: Pick<CapacityReservation, 'reservationType' | 'endTime'>,
  now: Date,
): CapacityReservationState {
  const { reservationType, endTime } = reservation;
  if (reservationType !== 'capacity-block' || endTime === undefined) return 'active';
  const expiresAt = Date.parse(endTime) - CAPACITY_BLOCK_EXPIRATION_MS;
  return now.getTime() < expiresAt ? 'active' : 'expiring';
}
