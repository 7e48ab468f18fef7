/**
 * The limit check made again right before a claim is written (core provisioner.go `Create`),
 * exact: against every claim the store holds and every claim this pass has written, each at the
 * worst its launch can fill (claim-charges.ts). The new claim keeps only the options no larger
 * and no dearer, in what its limits count, than the one it was planned on: whatever EC2 fills
 * from them counts no more than the check admitted, so passes racing cannot pass a limit
 * together, and a claim waiting for its instance holds back no more than it will use. (Keeping
 * every option that fits what remains would let the first claim of a burst hold back all of
 * it.) A pool limited only by node count keeps every option.
 */
import type { InstanceType } from '../instance-type.ts';
import { Label } from '../labels.ts';
import { dearestPrice } from '../limits/claim-charges.ts';
import { amountOf, type Charge, chargeOf, type PoolCharge } from '../limits/limit-charge.ts';
import {
  covers,
  exceededKey,
  type LimitRefusal,
  type LimitScope,
  refusal,
  remainingOf,
} from '../limits/limit-scope.ts';
import type { PlannedNodeClaim } from './provisioning-plan.ts';

export type Admission =
  | { readonly admitted: true; readonly planned: PlannedNodeClaim }
  | { readonly admitted: false; readonly refusal: LimitRefusal };

/** The worst a launch of the claim can fill this type at: its dearest offering of the claim's capacity type in the claim's zones. */
function worstCharge(planned: PlannedNodeClaim, type: InstanceType): Charge {
  const zones = planned.requirements.get(Label.zone);
  return chargeOf(type.capacity, dearestPrice(type, planned.offering, zones));
}

/** Whether `charge` is no larger than `bound` in any key the scopes limit. */
function within(charge: Charge, bound: Charge, scopes: readonly LimitScope[]): boolean {
  return scopes.every((scope) =>
    Object.keys(scope.limits).every((name) => amountOf(charge, name) <= amountOf(bound, name)),
  );
}

export function admitClaim(
  planned: PlannedNodeClaim,
  scopes: readonly LimitScope[],
  charges: readonly PoolCharge[],
): Admission {
  const limiting = scopes.filter((scope) => covers(scope, planned.nodePool));
  if (limiting.length === 0) return { admitted: true, planned };
  const first = worstCharge(planned, planned.instanceType);
  for (const scope of limiting) {
    const remaining = remainingOf(scope, charges);
    const name = exceededKey(first, remaining);
    if (name !== undefined) return { admitted: false, refusal: refusal(scope, name, remaining) };
  }
  const kept = planned.instanceTypeOptions.filter((type) =>
    within(worstCharge(planned, type), first, limiting),
  );
  return { admitted: true, planned: { ...planned, instanceTypeOptions: kept } };
}
