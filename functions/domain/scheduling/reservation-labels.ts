/**
 * The labels a node in a capacity reservation carries: the reservation's id, its type and
 * whether it is interruptible (aws: pkg/cloudprovider/cloudprovider.go `instanceToNodeClaim`);
 * none on a node of any other capacity type.
 */
import type { Offering } from '../instance-type.ts';
import { Label } from '../labels.ts';

export function reservationLabels(offering: Offering): Record<string, string> {
  if (offering.capacityType !== 'reserved' || offering.reservationId === undefined) return {};
  return {
    [Label.capacityReservationId]: offering.reservationId,
    [Label.capacityReservationType]: offering.reservationType ?? 'default',
    [Label.capacityReservationInterruptible]: String(offering.reservationInterruptible ?? false),
  };
}
