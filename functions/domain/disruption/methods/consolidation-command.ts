/**
 * What a removal simulation means for consolidation (core: disruption/consolidation.go,
 * computeConsolidation): if the pods fit on the rest of the cluster, delete; if they need exactly
 * one new node and it is strictly cheaper than what goes, replace; otherwise leave things be. A
 * replacement's instance types are cut to the strictly cheaper ones, so a launch can never land
 * on something pricier, and a spot node is replaced by spot only when at least 15 cheaper types
 * remain, so repeated replacements cannot race to the bottom of the spot market.
 */
import type { InstanceType, Offering } from '../../instance-type.ts';
import { offeringFilter } from '../../scheduling/offering-compatibility.ts';
import type { PlannedNodeClaim } from '../../scheduling/provisioning-plan.ts';
import type { Candidate } from '../candidate.ts';
import type { StayCode } from '../disruption-plan-types.ts';
import type { RemovalOutcome } from '../removal-simulation.ts';
import {
  CANNOT_REPLACE_CHEAPER,
  cannotRemoveWithout,
  notAllPodsWouldSchedule,
  spotToSpotTooFewTypes,
} from '../unconsolidatable.ts';

/** core: MinInstanceTypesForSpotToSpotConsolidation. */
export const MIN_SPOT_TO_SPOT_TYPES = 15;

export type ConsolidationCommand =
  | { readonly kind: 'delete'; readonly savingsPerHour: number }
  | {
      readonly kind: 'replace';
      readonly replacement: PlannedNodeClaim;
      readonly savingsPerHour: number;
    }
  | {
      readonly kind: 'none';
      readonly code: StayCode;
      readonly reason: string;
      /** Karpenter's `Unconsolidatable` message, told for single-node commands only. */
      readonly unconsolidatable?: string;
    };

export function dollars(value: number): string {
  return `$${value.toFixed(4).replace(/0{1,2}$/, '')}`;
}

function priceOf(candidates: readonly Candidate[]): number | undefined {
  let total = 0;
  for (const c of candidates) {
    if (c.pricePerHour === undefined) return undefined;
    total += c.pricePerHour;
  }
  return total;
}

/** Each option with its cheapest offering the claim may use, cheapest first. */
function pricedOptions(claim: PlannedNodeClaim): { type: InstanceType; offering: Offering }[] {
  const accept = offeringFilter(claim.requirements);
  const out: { type: InstanceType; offering: Offering }[] = [];
  for (const type of claim.instanceTypeOptions) {
    let best: Offering | undefined;
    for (const o of type.offerings) {
      if (accept(o) && (best === undefined || o.pricePerHour < best.pricePerHour)) best = o;
    }
    if (best !== undefined) out.push({ type, offering: best });
  }
  return out.sort((a, b) => a.offering.pricePerHour - b.offering.pricePerHour);
}

export function consolidationCommand(
  candidates: readonly Candidate[],
  outcome: RemovalOutcome,
  options: { readonly singleNode: boolean },
): ConsolidationCommand {
  if (!outcome.ok) {
    return {
      kind: 'none',
      code: 'NoPlaceForPods',
      reason: outcome.reason,
      unconsolidatable: notAllPodsWouldSchedule(outcome.podErrors),
    };
  }
  const current = priceOf(candidates);
  if (outcome.newClaims.length === 0) return { kind: 'delete', savingsPerHour: current ?? 0 };
  if (outcome.newClaims.length > 1) {
    return {
      kind: 'none',
      code: 'TooManyReplacements',
      reason: `its pods would need ${outcome.newClaims.length} new nodes; consolidation replaces with one at most`,
      unconsolidatable: cannotRemoveWithout(outcome.newClaims.length),
    };
  }
  if (current === undefined) {
    return {
      kind: 'none',
      code: 'UnknownPrice',
      reason:
        'the price of its offering is not in the catalog, so no replacement can be shown cheaper',
    };
  }
  return replacement(candidates, outcome.newClaims[0] as PlannedNodeClaim, current, options);
}

function replacement(
  candidates: readonly Candidate[],
  claim: PlannedNodeClaim,
  current: number,
  options: { readonly singleNode: boolean },
): ConsolidationCommand {
  const priced = pricedOptions(claim);
  const cheaper = priced.filter((p) => p.offering.pricePerHour < current);
  const [cheapest] = cheaper;
  if (cheapest === undefined) {
    const best = priced[0];
    const what =
      best === undefined
        ? 'no offering'
        : `${best.type.name} (${best.offering.capacityType}, ${best.offering.zone}) at ${dollars(best.offering.pricePerHour)}/h`;
    return {
      kind: 'none',
      code: 'NoCheaperReplacement',
      reason: `no cheaper replacement: the cheapest node for its pods, ${what}, costs no less than its ${dollars(current)}/h`,
      unconsolidatable: CANNOT_REPLACE_CHEAPER,
    };
  }
  const spotToSpot =
    candidates.every((c) => c.capacityType === 'spot') && cheapest.offering.capacityType === 'spot';
  let kept = cheaper;
  if (spotToSpot && options.singleNode) {
    if (cheaper.length < MIN_SPOT_TO_SPOT_TYPES) {
      return {
        kind: 'none',
        code: 'SpotToSpot',
        reason: `spot-to-spot replacement needs at least ${MIN_SPOT_TO_SPOT_TYPES} cheaper instance types; ${cheaper.length} are`,
        unconsolidatable: spotToSpotTooFewTypes(MIN_SPOT_TO_SPOT_TYPES, cheaper.length),
      };
    }
    kept = cheaper.slice(0, MIN_SPOT_TO_SPOT_TYPES);
  }
  const replacementClaim: PlannedNodeClaim = {
    ...claim,
    instanceType: cheapest.type,
    offering: cheapest.offering,
    instanceTypeOptions: kept.map((p) => p.type),
  };
  return {
    kind: 'replace',
    replacement: replacementClaim,
    savingsPerHour: current - cheapest.offering.pricePerHour,
  };
}
