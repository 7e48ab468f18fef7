/**
 * docs/design.md §3.6: pods kube-scheduler gave up on → one plan → claims written `Pending` →
 * launched concurrently. On a capacity error the failed offerings are marked unavailable and
 * only the pods of the failed claims are planned again, in this pass, against what remains:
 * other zones, other sizes, other capacity types, then lower-weight pools. Karpenter makes those
 * pods wait for its next loop.
 */
import pLimit from 'p-limit';
import type { InstanceType } from '../../domain/instance-type.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { compareText } from '../../domain/state/order.ts';
import {
  byOffering,
  type OfferingKey,
  offeringId,
} from '../../domain/state/unavailable-offering.ts';
import type { Decision } from '../../ports/decisions.ts';
import { instanceTypesByPool } from '../instance-types-by-pool.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { PassReport, PlanRound } from './pass-report.ts';
import {
  emptyRound,
  Provisioning,
  type ProvisioningContext,
  type RoundResult,
} from './provisioning.ts';

/** What the pass reports of provisioning, and what the later steps take from it. */
export interface ProvisioningOutcome
  extends Pick<
    PassReport,
    'provisionablePods' | 'rounds' | 'launches' | 'failures' | 'replannedPods' | 'unschedulable'
  > {
  readonly claims: readonly NodeClaimRecord[];
  readonly decisions: readonly Decision[];
  /** Existing nodes the plans placed pending pods on: disruption leaves them alone this pass. */
  readonly nominated: ReadonlySet<string>;
}

function uniqueOfferings(offerings: readonly OfferingKey[]): OfferingKey[] {
  return [...new Map(offerings.map((o) => [offeringId(o), o])).values()].sort(byOffering);
}

/** The offerings a launch found without capacity are skipped for `seconds`. */
export async function markUnavailable(
  deps: PassDependencies,
  offerings: readonly OfferingKey[],
  seconds: number,
): Promise<void> {
  const now = deps.clock.now();
  await Promise.all(
    uniqueOfferings(offerings).map((o) => deps.state.unavailableOfferings.mark(o, now, seconds)),
  );
}

interface Progress {
  readonly all: RoundResult;
  readonly rounds: PlanRound[];
  readonly unschedulable: UnschedulablePod[];
  unavailable: OfferingKey[];
  readonly nominated: Set<string>;
  provisionablePods: number;
  replannedPods: number;
}

/** One plan and its launches; resolves with the pods to plan again, if any. */
async function planAndLaunch(
  provisioning: Provisioning,
  round: number,
  focus: ReadonlySet<string> | undefined,
  types: ReadonlyMap<string, readonly InstanceType[]>,
  progress: Progress,
  launchConcurrency: number,
): Promise<RoundResult> {
  const plan = provisioning.plan(focus, types);
  if (round === 0) progress.provisionablePods = plan.pendingPods;
  progress.rounds.push({
    round,
    pendingPods: plan.pendingPods,
    newNodeClaims: plan.nodeClaims.length,
    onExistingCapacity: plan.existingNodes.flatMap((e) => e.pods),
    unschedulable: plan.unschedulable.length,
  });
  progress.unschedulable.push(...plan.unschedulable);
  for (const placement of plan.existingNodes) progress.nominated.add(placement.name);
  const result = emptyRound();
  const limit = pLimit(launchConcurrency);
  await Promise.all(
    plan.nodeClaims.map((planned) =>
      limit(() => provisioning.createAndLaunch(planned, types, round, result)),
    ),
  );
  // Launches finish in any order; the report lists them in the order the plan made them.
  result.launches.sort((a, b) => compareText(a.claim.name, b.claim.name));
  result.decisions.sort((a, b) => compareText(a.nodeClaim, b.nodeClaim));
  progress.all.launches.push(...result.launches);
  progress.all.failures.push(...result.failures);
  progress.all.decisions.push(...result.decisions);
  progress.all.refused.push(...result.refused);
  return result;
}

export async function provision(
  deps: PassDependencies,
  context: ProvisioningContext,
): Promise<ProvisioningOutcome> {
  const { settings, snapshot } = context;
  const provisioning = new Provisioning(deps, context);
  const progress: Progress = {
    all: emptyRound(),
    rounds: [],
    unschedulable: [],
    unavailable: [...snapshot.unavailable],
    nominated: new Set(),
    provisionablePods: 0,
    replannedPods: 0,
  };
  let types = context.instanceTypes;
  let focus: Set<string> | undefined;
  for (let round = 0; ; round++) {
    const result = await planAndLaunch(
      provisioning,
      round,
      focus,
      types,
      progress,
      settings.launchConcurrency,
    );
    if (result.unavailable.length > 0) {
      await markUnavailable(deps, result.unavailable, settings.unavailableOfferingSeconds);
      progress.unavailable = [...progress.unavailable, ...result.unavailable];
    }
    const outOfTime = deps.clock.now().getTime() >= context.deadline;
    if (result.replan.size === 0 || outOfTime || round === settings.maxReplanRounds) break;
    focus = result.replan;
    progress.replannedPods += focus.size;
    const replanned = await instanceTypesByPool(
      { ...snapshot, unavailable: progress.unavailable },
      deps.cloud,
    );
    types = replanned.byPool;
  }
  return outcomeOf(progress, provisioning.claims);
}

function outcomeOf(progress: Progress, claims: readonly NodeClaimRecord[]): ProvisioningOutcome {
  return {
    provisionablePods: progress.provisionablePods,
    rounds: progress.rounds,
    launches: progress.all.launches,
    failures: progress.all.failures,
    replannedPods: progress.replannedPods,
    unschedulable: [...progress.unschedulable, ...progress.all.refused],
    claims,
    decisions: progress.all.decisions,
    nominated: progress.nominated,
  };
}
