import { Label } from '../labels.ts';

/** Keys that decide which offerings remain, rather than which instance types. */
export const OFFERING_KEYS: ReadonlySet<string> = new Set([
  Label.zone,
  Label.capacityType,
  Label.zoneId,
  Label.capacityReservationId,
  Label.placementGroupPartition,
]);
