/**
 * A planned node claim as the `plan` and `disruption` reports show it (docs/design.md §6.2,
 * §6.3): the offering a launch would try first, every compatible type cheapest first, and the
 * pods it is for.
 */
import type { InstanceType } from '../domain/instance-type.ts';
import type { PlannedNodeClaim } from '../domain/scheduling/provisioning-plan.ts';
import type { ChosenOffering } from '../domain/state/node-claim-record.ts';

/** The claim's pool and pods, the offering a launch tries first, and its options by name. */
export interface NodeClaimReport
  extends Pick<PlannedNodeClaim, 'nodePool' | 'pods'>,
    ChosenOffering {
  readonly instanceTypeOptions: readonly string[];
}

/** Prices are money: round away binary noise (0.1 + 0.2) but keep every cent fraction AWS lists. */
export function money(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Each option list's names, made once per list: a plan's claims share a few lists
 * (domain/scheduling/open-option-lists.ts), and a shared list of names is written once as JSON.
 */
const names = new WeakMap<readonly InstanceType[], readonly string[]>();

function namesOf(types: readonly InstanceType[]): readonly string[] {
  let known = names.get(types);
  if (known === undefined) {
    known = types.map((it) => it.name);
    names.set(types, known);
  }
  return known;
}

export function nodeClaimReport(claim: PlannedNodeClaim): NodeClaimReport {
  return {
    nodePool: claim.nodePool,
    instanceType: claim.instanceType.name,
    zone: claim.offering.zone,
    capacityType: claim.offering.capacityType,
    pricePerHour: money(claim.offering.pricePerHour),
    instanceTypeOptions: namesOf(claim.instanceTypeOptions),
    pods: claim.pods,
  };
}
