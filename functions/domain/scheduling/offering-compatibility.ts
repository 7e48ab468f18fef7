/** Whether an instance type can still be launched under a set of requirements. */
import type { InstanceType, Offering } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { has, type Requirement } from '../requirements/requirement.ts';
import type { Requirements } from '../requirements/requirements.ts';

function allows(req: Requirement | undefined, value: string | undefined): boolean {
  return req === undefined || value === undefined || has(req, value);
}

/** A predicate over offerings, built once per requirements set (the hot path calls it a lot). */
export function offeringFilter(reqs: Requirements): (offering: Offering) => boolean {
  const zone = reqs.get(Label.zone);
  const capacityType = reqs.get(Label.capacityType);
  const zoneId = reqs.get(Label.zoneId);
  const reservation = reqs.get(Label.capacityReservationId);
  return (o) =>
    o.available &&
    allows(zone, o.zone) &&
    allows(capacityType, o.capacityType) &&
    allows(zoneId, o.zoneId) &&
    allows(reservation, o.reservationId);
}

export function hasAvailableOffering(
  it: InstanceType,
  accept: (offering: Offering) => boolean,
): boolean {
  return it.offerings.some(accept);
}
