/**
 * The account's capacity reservations as DescribeCapacityReservations lists them: by id (an id
 * EC2 does not know is `InvalidCapacityReservationId.NotFound`) and by the filters Karpenter's
 * queries use, with the instances each can still take.
 */
import type { DescribeCapacityReservationsCommandInput } from '@aws-sdk/client-ec2';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import {
  isActive,
  SIMULATED_ACCOUNT,
  type SimulatedReservation,
} from '../../cloud/simulated-reservations.ts';
import { AwsError } from '../aws-service.ts';
import { tagFilterValues, where } from './ec2-filters.ts';
import { page } from './ec2-paging.ts';

/** The values a reservation has for each filter Karpenter's queries use. */
function filterValues(r: SimulatedReservation, now: Date) {
  const values: Readonly<Record<string, string>> = {
    state: isActive(r, now) ? 'active' : 'expired',
    'owner-id': r.ownerId ?? SIMULATED_ACCOUNT,
    'instance-match-criteria': r.instanceMatchCriteria ?? 'targeted',
  };
  return (name: string) => {
    const value = values[name];
    return value === undefined ? tagFilterValues(r.tags ?? {}, name) : [value];
  };
}

export function describeCapacityReservations(
  ec2: SimulatedEc2,
  input: DescribeCapacityReservationsCommandInput,
) {
  const now = ec2.options.clock.now();
  const ids = input.CapacityReservationIds;
  const unknown = (ids ?? []).filter((id) => !ec2.reservations.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw new AwsError(
      'InvalidCapacityReservationId.NotFound',
      `The capacity reservation ID '${unknown.join(', ')}' does not exist`,
    );
  }
  const named = ec2.reservations.filter((r) => ids === undefined || ids.includes(r.id));
  const found = where(named, input.Filters, (r) => filterValues(r, now));
  const { items, NextToken } = page(found, input, 1000);
  return {
    CapacityReservations: items.map((r) => ({
      CapacityReservationId: r.id,
      InstanceType: r.instanceType,
      AvailabilityZone: r.zone,
      OwnerId: r.ownerId ?? SIMULATED_ACCOUNT,
      InstanceMatchCriteria: r.instanceMatchCriteria ?? 'targeted',
      ReservationType: r.reservationType ?? 'default',
      State: isActive(r, now) ? 'active' : 'expired',
      TotalInstanceCount: r.count,
      AvailableInstanceCount: ec2.availableIn(r.id),
      ...(r.endTime === undefined ? {} : { EndDate: new Date(r.endTime) }),
      Tags: Object.entries(r.tags ?? {}).map(([Key, Value]) => ({ Key, Value })),
    })),
    ...(NextToken === undefined ? {} : { NextToken }),
  };
}
