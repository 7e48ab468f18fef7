/**
 * DESIGN §1 step 4: pods kube-scheduler gave up on → one plan → claims written `Pending` →
 * launched concurrently. On a capacity error the failed offerings are marked unavailable and
 * only the pods of the failed claims are planned again, in this pass, against what remains:
 * other zones, other sizes, other capacity types, then lower-weight pools. Karpenter makes those
 * pods wait for its next loop.
 */
import pLimit from 'p-limit';
import type { InstanceType } from '../../domain/instance-type.ts';
import { pendingClaimRecord } from '../../domain/lifecycle/claim-record.ts';
import { planningClaim } from '../../domain/lifecycle/planning-claim.ts';
import { limitExceeded } from '../../domain/lifecycle/pool-limits.ts';
import { podKey } from '../../domain/pod.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type {
  PlannedNodeClaim,
  ProvisioningPlan,
  UnschedulablePod,
} from '../../domain/scheduling/provisioning-plan.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { compareText } from '../../domain/state/order.ts';
import {
  byOffering,
  type OfferingKey,
  offeringId,
} from '../../domain/state/unavailable-offering.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { defaultNodeClass, instanceTypesByPool } from '../instance-types-by-pool.ts';
import { type LaunchOutcome, launchClaim } from './claim-launch.ts';
import { decisionOf, podsReason } from './decisions.ts';
import type { PassDependencies, PassSettings } from './pass-dependencies.ts';
import type { LaunchFailure, LaunchRecord, PlanRound } from './pass-report.ts';
import type { PassSnapshot } from './pass-snapshot.ts';

export interface ProvisioningContext {
  readonly snapshot: PassSnapshot;
  /** The claims after the lifecycle step. */
  readonly claims: readonly NodeClaimRecord[];
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly write: FencedWrite;
  readonly settings: PassSettings;
  /** When scheduling must stop (epoch ms of the pass's clock). */
  readonly deadline: number;
}

export interface ProvisioningOutcome {
  readonly provisionablePods: number;
  readonly rounds: readonly PlanRound[];
  readonly launches: readonly LaunchRecord[];
  readonly failures: readonly LaunchFailure[];
  readonly replannedPods: number;
  readonly unschedulable: readonly UnschedulablePod[];
  readonly claims: readonly NodeClaimRecord[];
  readonly decisions: readonly Decision[];
}

/** One round's work: the claims launched and the pods whose claims hit a capacity error. */
interface RoundResult {
  readonly launches: LaunchRecord[];
  readonly failures: LaunchFailure[];
  readonly decisions: Decision[];
  readonly unavailable: OfferingKey[];
  readonly replan: Set<string>;
  readonly refused: UnschedulablePod[];
}

class Provisioning {
  readonly #deps: PassDependencies;
  readonly #context: ProvisioningContext;
  #claims: NodeClaimRecord[];
  /** Each limited pool's claims as the store held them when this pass first needed them. */
  readonly #live = new Map<string, Promise<readonly NodeClaimRecord[]>>();

  constructor(deps: PassDependencies, context: ProvisioningContext) {
    this.#deps = deps;
    this.#context = context;
    this.#claims = [...context.claims];
  }

  plan(
    focus: ReadonlySet<string> | undefined,
    types: ReadonlyMap<string, readonly InstanceType[]>,
  ): ProvisioningPlan {
    const { snapshot, settings } = this.#context;
    const cluster = snapshot.cluster;
    const pods =
      focus === undefined
        ? cluster.pods
        : cluster.pods.filter((p) => p.nodeName !== undefined || focus.has(podKey(p)));
    return planProvisioning({
      pods,
      nodes: cluster.nodes,
      nodeClaims: this.#claims.map(planningClaim),
      nodePools: snapshot.nodePools,
      nodeClasses: snapshot.nodeClasses,
      instanceTypes: types,
      daemonSets: cluster.daemonSets,
      persistentVolumeClaims: cluster.persistentVolumeClaims,
      persistentVolumes: cluster.persistentVolumes,
      storageClasses: cluster.storageClasses,
      namespaces: new Map(cluster.namespaces.map((n) => [n.name, n.labels])),
      region: settings.region,
      requireUnschedulableMark: true,
      outOfTime: () => this.#deps.clock.now().getTime() >= this.#context.deadline,
    });
  }

  /**
   * The limit re-check, then the claim written `Pending`, then the launch: the write is the
   * promise not to launch twice.
   */
  async createAndLaunch(
    planned: PlannedNodeClaim,
    types: ReadonlyMap<string, readonly InstanceType[]>,
    round: number,
    result: RoundResult,
  ): Promise<void> {
    const stored = await this.#storedClaims(planned.nodePool);
    // From here to the placeholder below nothing awaits, so no launch beside this one can pass
    // the limit check in between.
    const refusal = this.#limitRefusal(planned, stored);
    if (refusal !== undefined) {
      result.refused.push(...refusal);
      return;
    }
    const deps = this.#deps;
    const { snapshot, write } = this.#context;
    const record = pendingClaimRecord(
      planned,
      deps.newClaimName(planned.nodePool),
      deps.clock.now(),
    );
    // Counted at once, before the write resolves, so launches running beside this one see it
    // when they check the pool's limits.
    this.#claims.push({ ...record, version: 0 });
    const pending = await deps.state.nodeClaims.create(record, write);
    this.#replace(pending);
    const nodeClass =
      snapshot.nodeClasses.find((c) => c.metadata.name === planned.nodeClass) ??
      defaultNodeClass(planned.nodeClass);
    const outcome = await launchClaim(deps, {
      claim: pending,
      nodeClass,
      instanceTypes: types.get(planned.nodePool) ?? [],
      write,
    });
    this.#record(outcome, { planned, pending, round }, result);
  }

  /** The pool's claims as the store holds them, read once a pass and only for limited pools. */
  #storedClaims(nodePool: string): Promise<readonly NodeClaimRecord[]> {
    const pool = this.#context.snapshot.nodePools.find((p) => p.metadata.name === nodePool);
    if (pool?.spec.limits === undefined) return Promise.resolve([]);
    let stored = this.#live.get(nodePool);
    if (stored === undefined) {
      stored = this.#deps.state.nodeClaims.listByPool(nodePool);
      this.#live.set(nodePool, stored);
    }
    return stored;
  }

  /**
   * The pool's limits checked again against live usage (core provisioner.go `Create`): the
   * claims the store holds with those this pass has written or is writing.
   */
  #limitRefusal(
    planned: PlannedNodeClaim,
    stored: readonly NodeClaimRecord[],
  ): UnschedulablePod[] | undefined {
    const pool = this.#context.snapshot.nodePools.find((p) => p.metadata.name === planned.nodePool);
    if (pool?.spec.limits === undefined) return undefined;
    const ours = new Set(this.#claims.map((c) => c.name));
    const usage = [...this.#claims, ...stored.filter((c) => !ours.has(c.name))];
    const refusal = limitExceeded(pool, usage, planned.instanceType.capacity);
    if (refusal === undefined) return undefined;
    const reasons = [{ nodePool: planned.nodePool, code: 'Limits' as const, message: refusal }];
    return planned.pods.map((pod) => ({ pod, reason: refusal, reasons }));
  }

  #record(
    outcome: LaunchOutcome,
    {
      planned,
      pending,
      round,
    }: { planned: PlannedNodeClaim; pending: NodeClaimRecord; round: number },
    result: RoundResult,
  ): void {
    const at = this.#deps.clock.now();
    if (outcome.kind === 'launched') {
      this.#replace(outcome.claim);
      result.launches.push({
        at: at.toISOString(),
        claim: outcome.claim,
        pods: planned.pods,
        round,
      });
      result.unavailable.push(...outcome.unavailable);
      result.decisions.push(decisionOf('Launched', outcome.claim, at, podsReason(planned.pods)));
      return;
    }
    const capacity = outcome.kind === 'capacity';
    result.failures.push({
      at: at.toISOString(),
      claim: pending.name,
      nodePool: pending.nodePool,
      pods: planned.pods,
      reason: outcome.reason,
      capacity,
    });
    if (outcome.kind === 'retry') return;
    this.#drop(pending.name);
    result.decisions.push(decisionOf('LaunchFailed', pending, at, outcome.reason));
    if (outcome.kind === 'capacity') {
      result.unavailable.push(...outcome.offerings);
      for (const pod of planned.pods) result.replan.add(pod);
    }
  }

  #replace(claim: NodeClaimRecord): void {
    this.#claims = this.#claims.map((c) => (c.name === claim.name ? claim : c));
  }

  #drop(name: string): void {
    this.#claims = this.#claims.filter((c) => c.name !== name);
  }

  get claims(): readonly NodeClaimRecord[] {
    return this.#claims;
  }
}

function emptyRound(): RoundResult {
  return {
    launches: [],
    failures: [],
    decisions: [],
    unavailable: [],
    replan: new Set(),
    refused: [],
  };
}

function uniqueOfferings(offerings: readonly OfferingKey[]): OfferingKey[] {
  return [...new Map(offerings.map((o) => [offeringId(o), o])).values()].sort(byOffering);
}

async function markUnavailable(
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
    types = await instanceTypesByPool(
      {
        nodePools: snapshot.nodePools,
        nodeClasses: snapshot.nodeClasses,
        unavailable: progress.unavailable,
      },
      deps.cloud,
    );
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
  };
}
