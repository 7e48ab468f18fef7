/**
 * A planned node claim as the `plan` and `disruption` reports show it (docs/design.md §6.2,
 * §6.3): the offering a launch would try first, every compatible type cheapest first, and the
 * pods it is for.
 */
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

export function nodeClaimReport(claim: PlannedNodeClaim): NodeClaimReport {
  return {
    nodePool: claim.nodePool,
    instanceType: claim.instanceType.name,
    zone: claim.offering.zone,
    capacityType: claim.offering.capacityType,
    pricePerHour: money(claim.offering.pricePerHour),
    instanceTypeOptions: claim.instanceTypeOptions.map((it) => it.name),
    pods: claim.pods,
  };
}
