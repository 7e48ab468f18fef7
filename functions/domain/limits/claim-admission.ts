/**
 * The limit check made again right before a claim is written (core provisioner.go `Create`),
 * exact: against every claim the store holds and every claim this pass has written, each at the
 * worst its launch can fill (claim-charges.ts). The new claim keeps only the options whose own
 * worst still fits, so whatever EC2 fills from them, no limit is passed, even by passes racing.
 */
import type { InstanceType } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { has } from '../requirements/requirement.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { type Charge, chargeOf, type PoolCharge } from './limit-charge.ts';
import {
  covers,
  exceededKey,
  type LimitRefusal,
  type LimitScope,
  refusal,
  remainingOf,
} from './limit-scope.ts';

export type Admission =
  | { readonly admitted: true; readonly planned: PlannedNodeClaim }
  | { readonly admitted: false; readonly refusal: LimitRefusal };

/** The worst a launch of the claim can fill this type at: its dearest offering of the claim's capacity type in the claim's zones. */
function worstCharge(planned: PlannedNodeClaim, type: InstanceType): Charge {
  const zones = planned.requirements.get(Label.zone);
  const prices = type.offerings
    .filter(
      (o) =>
        o.capacityType === planned.offering.capacityType &&
        (zones === undefined || has(zones, o.zone)),
    )
    .map((o) => o.pricePerHour);
  return chargeOf(type.capacity, Math.max(planned.offering.pricePerHour, ...prices));
}

export function admitClaim(
  planned: PlannedNodeClaim,
  scopes: readonly LimitScope[],
  charges: readonly PoolCharge[],
): Admission {
  const limiting = scopes
    .filter((scope) => covers(scope, planned.nodePool))
    .map((scope) => ({ scope, remaining: remainingOf(scope, charges) }));
  if (limiting.length === 0) return { admitted: true, planned };
  const fits = (type: InstanceType) => {
    const charge = worstCharge(planned, type);
    return limiting.every(({ remaining }) => exceededKey(charge, remaining) === undefined);
  };
  if (!fits(planned.instanceType)) {
    const charge = worstCharge(planned, planned.instanceType);
    for (const { scope, remaining } of limiting) {
      const name = exceededKey(charge, remaining);
      if (name !== undefined) return { admitted: false, refusal: refusal(scope, name, remaining) };
    }
  }
  const kept = planned.instanceTypeOptions.filter(fits);
  return { admitted: true, planned: { ...planned, instanceTypeOptions: kept } };
}
