/** Whether an instance type can still be launched under a set of requirements. */
import type { InstanceType, Offering } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { has, type Requirement } from '../requirements/requirement.ts';
import type { Requirements } from '../requirements/requirements.ts';

function allows(req: Requirement | undefined, value: string | undefined): boolean {
  return req === undefined || value === undefined || has(req, value);
}

/**
 * Whether an offering without the label passes: only `DoesNotExist` and `NotIn` let absence
 * through, so a pod asking for a reservation id is offered only that reservation.
 */
function allowsLabel(req: Requirement | undefined, value: string | undefined): boolean {
  if (req === undefined || value !== undefined) return allows(req, value);
  return req.complement ? req.values.size > 0 : req.values.size === 0;
}

/** A predicate over offerings, built once per requirements set (the hot path calls it a lot). */
export function offeringFilter(reqs: Requirements): (offering: Offering) => boolean {
  const zone = reqs.get(Label.zone);
  const capacityType = reqs.get(Label.capacityType);
  const zoneId = reqs.get(Label.zoneId);
  const reservation = reqs.get(Label.capacityReservationId);
  const partition = reqs.get(Label.placementGroupPartition);
  return (o) =>
    o.available &&
    allows(zone, o.zone) &&
    allows(capacityType, o.capacityType) &&
    allows(zoneId, o.zoneId) &&
    allowsLabel(reservation, o.reservationId) &&
    allows(partition, o.partition);
}

export function hasAvailableOffering(
  it: InstanceType,
  accept: (offering: Offering) => boolean,
): boolean {
  return it.offerings.some(accept);
}
