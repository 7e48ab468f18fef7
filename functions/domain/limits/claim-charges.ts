/**
 * What the controller's claims count against limits. Every claim counts, those going too (their
 * nodes still run and bill), except the ones an interruption is taking: their replacements may
 * launch even at a limit, since losing the node is worse. A launched claim counts as what it
 * got, at the price its launch saw; a claim not launched yet counts as the worst its launch
 * can fill: the largest of its options, at the dearest offering of its capacity type in its
 * zones. So passes racing on the store can never take a pool past a limit together.
 */
import type { InstanceType } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { has, type Requirement } from '../requirements/requirement.ts';
import { fromNodeSelector } from '../requirements/requirements.ts';
import type { ChosenOffering, NodeClaimRecord } from '../state/node-claim-record.ts';
import { type Charge, chargeOf, largest, type PoolCharge } from './limit-charge.ts';

/** Disruption reasons of an interruption (see interruption-action.ts). */
const INTERRUPTIONS: ReadonlySet<string> = new Set([
  'SpotInterrupted',
  'CapacityReservationInstanceInterrupted',
  'ScheduledChange',
  'InstanceStopping',
  'InstanceTerminating',
  'RebalanceRecommended',
  'InstanceUnhealthy',
]);

export function isInterrupted(claim: NodeClaimRecord): boolean {
  return claim.disruption !== undefined && INTERRUPTIONS.has(claim.disruption.reason);
}

/**
 * The dearest price a launch could fill `type` at: a launch asks for one capacity type, in any
 * of the claim's zones, and counts at least at the price it was planned at.
 */
export function dearestPrice(
  type: InstanceType,
  offering: Pick<ChosenOffering, 'capacityType' | 'pricePerHour'>,
  zones: Requirement | undefined,
): number {
  const prices = type.offerings
    .filter(
      (o) =>
        o.capacityType === offering.capacityType && (zones === undefined || has(zones, o.zone)),
    )
    .map((o) => o.pricePerHour);
  return Math.max(offering.pricePerHour, ...prices);
}

/** Each catalog's types by name, worked out once per catalog rather than once per claim. */
const typesByName = new WeakMap<readonly InstanceType[], ReadonlyMap<string, InstanceType>>();

function byNameIn(types: readonly InstanceType[]): ReadonlyMap<string, InstanceType> {
  let byName = typesByName.get(types);
  if (byName === undefined) {
    byName = new Map(types.map((t) => [t.name, t]));
    typesByName.set(types, byName);
  }
  return byName;
}

/** The worst a claim's launch can fill, over the options the catalog still knows. */
export function worstCharge(claim: NodeClaimRecord, types: readonly InstanceType[]): Charge {
  const byName = byNameIn(types);
  const zones = fromNodeSelector(claim.requirements).get(Label.zone);
  const charges = claim.instanceTypeOptions.flatMap((name) => {
    const type = byName.get(name);
    if (type === undefined) return [];
    return [chargeOf(type.capacity, dearestPrice(type, claim.offering, zones))];
  });
  return largest([chargeOf(claim.capacity ?? {}, claim.offering.pricePerHour), ...charges]);
}

/**
 * Charges already worked out, by catalog and claim record: records are replaced, never changed,
 * so a pass admitting one claim after another charges each of the others once, not once per
 * admission (thousands of claims, each over hundreds of options).
 */
const charged = new WeakMap<readonly InstanceType[], WeakMap<NodeClaimRecord, Charge>>();

export function claimCharge(claim: NodeClaimRecord, types: readonly InstanceType[]): Charge {
  let byClaim = charged.get(types);
  if (byClaim === undefined) {
    byClaim = new WeakMap();
    charged.set(types, byClaim);
  }
  let charge = byClaim.get(claim);
  if (charge === undefined) {
    charge =
      claim.instanceId === undefined
        ? worstCharge(claim, types)
        : chargeOf(claim.capacity ?? {}, claim.offering.pricePerHour);
    byClaim.set(claim, charge);
  }
  return charge;
}

/**
 * The charges of every claim that counts, with each pool's instance types to price the
 * unlaunched; `withInterrupted` counts the interrupted too, to tell when a replacement overran.
 */
export function claimCharges(
  claims: readonly NodeClaimRecord[],
  instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
  withInterrupted = false,
): PoolCharge[] {
  return claims
    .filter((claim) => withInterrupted || !isInterrupted(claim))
    .map((claim) => ({
      nodePool: claim.nodePool,
      charge: claimCharge(claim, instanceTypes.get(claim.nodePool) ?? []),
    }));
}
