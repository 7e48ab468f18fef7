/**
 * Instance selection within the class's placement group: a claim of a cluster or spread group is
 * offered only the zones the group leaves open (placement-ledger.ts) and pinned to the zone of
 * the offering it launches first (`topology.kubernetes.io/zone In [zone]`), so its launch goes
 * exactly there and the ledger counts it. Reservations are counted as in reserved-selection.ts.
 * A claim the group's rule leaves without an offering is refused with the rule's reason.
 */

import { Label } from '../labels.ts';
import { confinesZones } from '../placement-group.ts';
import { requirement } from '../requirements/requirement.ts';
import { add, requirementsOf } from '../requirements/requirements.ts';
import { type InstanceSelection, selectInstances } from './instance-selection.ts';
import { type PlacementLedger, placementGroupOf } from './placement-ledger.ts';
import { type ReservedSelectionInput, selectReserving } from './reserved-selection.ts';
import { type Unfit, unfit } from './unfit.ts';

export interface PlacedSelectionInput extends ReservedSelectionInput {
  readonly placements: PlacementLedger;
}

export function selectPlaced(input: PlacedSelectionInput): InstanceSelection | Unfit | undefined {
  const group = placementGroupOf(input.template);
  if (group === undefined || !confinesZones(group)) return selectReserving(input);
  const rule = input.placements.rule(group);
  const open =
    rule === undefined ? input.requirements : add(input.requirements, requirementsOf([rule.zones]));
  const selection = selectReserving({ ...input, requirements: open });
  if (selection === undefined) {
    // Refused for the group only when the claim had an offering without its rule.
    if (rule === undefined || selectInstances(input) === undefined) return undefined;
    return unfit('PlacementGroup', rule.reason);
  }
  const zone = selection.options[0]?.offering.zone;
  if (zone === undefined) return selection;
  const pinned = add(
    selection.requirements,
    requirementsOf([requirement(Label.zone, 'In', [zone])]),
  );
  const placed = selectInstances({ ...input, requirements: pinned }) ?? selection;
  input.placements.take(group, zone);
  return placed;
}
