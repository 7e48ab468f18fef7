/**
 * docs/design.md §3.7: voluntary disruption in the pass. The domain decides (`planDisruption`, the
 * function `nodesmith disruption` runs); this step carries the decisions out across passes:
 * unhealthy nodes are marked for deletion at once with their pods deleted rather than evicted
 * (repair), and told `NodeRepairBlocked` when their pool has too many; expired nodes are marked
 * for deletion at once; drifted nodes get their replacements launched
 * first; empty and underused nodes wait 15 s and are decided again before anything is touched.
 * A candidate with replacements is tainted and drains only once they are Initialized; if one
 * fails or does not come up in ten minutes, the candidate is untainted and left as it was.
 * Nodes that stay for a reason a person can act on get a `DisruptionBlocked` Event, and those
 * consolidation leaves get Karpenter's `Unconsolidatable` one; a candidate waiting on its
 * replacements says so with `DisruptionLaunching` and `DisruptionWaitingReadiness`. A decision
 * whose carrying out fails backs its candidates off and the pass goes on (claim-isolation.ts).
 */

import pLimit from 'p-limit';
import {
  isReplacing,
  isValidating,
  replacementProgress,
  validationDue,
} from '../../domain/disruption/command-progress.ts';
import { planDisruption } from '../../domain/disruption/disruption-plan.ts';
import type {
  DisruptionDecision,
  DisruptionPlan,
} from '../../domain/disruption/disruption-plan-types.ts';
import { NODE_REPAIR_BLOCKED_MESSAGE } from '../../domain/disruption/methods/repair.ts';
import { podEventUpdates } from '../../domain/disruption/pod-events.ts';
import {
  CAPACITY_BLOCK_EXPIRING_REASON,
  expiringCapacityBlockClaims,
} from '../../domain/lifecycle/capacity-block-expiration.ts';
import { isGoing } from '../../domain/lifecycle/claim-deletion.ts';
import { claimNetworks } from '../../domain/lifecycle/claim-networks.ts';
import { claimsOfDeletedPools } from '../../domain/lifecycle/owner-cascade.ts';
import { nodesForPlanning, planningClaim } from '../../domain/lifecycle/planning-claim.ts';
import { claimCharges } from '../../domain/limits/claim-charges.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import { planningInput } from '../../domain/scheduling/planning-input.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { DISRUPTED_TAINT } from '../../domain/taints.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import { budgetSchedules } from '../disruption/budget-schedules.ts';
import type { ClaimIsolation } from './claim-isolation.ts';
import { markClaimForDeletion } from './claim-marking.ts';
import {
  consolidationApprovedEvents,
  launchingEvent,
  unconsolidatableEvent,
  waitingOnReadinessEvent,
} from './disruption-events.ts';
import { nodeEvent } from './node-event.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { DisruptionCommands, LifecycleRecord } from './pass-report.ts';
import { emptyRound, Provisioning, type ProvisioningContext } from './provisioning.ts';

export interface DisruptionStepContext extends Omit<ProvisioningContext, 'claims'> {
  /** The claims after provisioning. */
  readonly claims: readonly NodeClaimRecord[];
  /** The snapshot's classes with what they select now (resolved-classes.ts). */
  readonly resolvedClasses: readonly EC2NodeClass[];
  /** Nodes this pass's provisioning placed pending pods on. */
  readonly nominated: ReadonlySet<string>;
  readonly isolation: ClaimIsolation;
}

export interface DisruptionOutcome {
  readonly records: readonly LifecycleRecord[];
  readonly decisions: readonly Decision[];
  readonly events: readonly ClusterEvent[];
  readonly claims: readonly NodeClaimRecord[];
  /** The commands this pass carried out, and those it approved to validate (docs/metrics.md). */
  readonly commands: DisruptionCommands;
}

/** Methods carried out in the pass that decides them; the others are validated 15 s later. */
const IMMEDIATE: ReadonlySet<string> = new Set(['repair', 'expiration', 'drift']);

/** Staying reasons worth telling on the node: someone can act on them. */
const BLOCKED_CODES: ReadonlySet<string> = new Set(['DoNotDisrupt', 'PodsBlock', 'Budget']);

function sameNodes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

class DisruptionStep {
  readonly #deps: PassDependencies;
  readonly #context: DisruptionStepContext;
  #claims: Map<string, NodeClaimRecord>;
  readonly records: LifecycleRecord[] = [];
  readonly decisions: Decision[] = [];
  readonly events: ClusterEvent[] = [];
  readonly commands = {
    carriedOut: [] as DisruptionDecision[],
    validating: [] as DisruptionDecision[],
  };

  constructor(deps: PassDependencies, context: DisruptionStepContext) {
    this.#deps = deps;
    this.#context = context;
    this.#claims = new Map(context.claims.map((c) => [c.name, c]));
  }

  get claims(): NodeClaimRecord[] {
    return [...this.#claims.values()];
  }

  #now(): Date {
    return this.#deps.clock.now();
  }

  #note(kind: string, claim: NodeClaimRecord, reason: string): void {
    this.records.push({
      at: this.#now().toISOString(),
      kind,
      claim: claim.name,
      ...(claim.nodeName ? { nodeName: claim.nodeName } : {}),
      reason,
    });
  }

  async #update(claim: NodeClaimRecord): Promise<NodeClaimRecord> {
    const updated = await this.#deps.state.nodeClaims.update(claim, this.#context.write);
    this.#claims.set(updated.name, updated);
    return updated;
  }

  async #clear(claim: NodeClaimRecord, kind: string, reason: string): Promise<void> {
    const { disruption: _cleared, ...rest } = claim;
    if (claim.disruption?.stage === 'Replacing' && claim.nodeName !== undefined) {
      await this.#deps.cluster.removeTaints(claim.nodeName, [DISRUPTED_TAINT]);
    }
    await this.#update(rest as NodeClaimRecord);
    this.#note(kind, claim, reason);
    if (claim.nodeName !== undefined)
      this.events.push(
        nodeEvent(claim.nodeName, kind, reason, { warning: kind === 'DisruptionFailed' }),
      );
  }

  /**
   * Claims whose NodePool was deleted go, through the usual drain, as Karpenter's owner
   * references take them: with no pool there is no terminationGracePeriod, so the drain waits
   * on the pods' PodDisruptionBudgets as long as it takes.
   */
  async cascadeDeletedPools(): Promise<void> {
    const { nodePools } = this.#context.snapshot;
    for (const claim of claimsOfDeletedPools(this.claims, nodePools)) {
      await this.#markForDeletion(
        claim,
        'NodePoolDeleted',
        `NodePool ${claim.nodePool} no longer exists`,
      );
    }
  }

  /** Claims whose nodes gained or lost pods since the last pass remember when. */
  async recordPodEvents(): Promise<void> {
    const watched = this.claims.filter((c) => !isGoing(c));
    const changed = podEventUpdates(watched, this.#context.snapshot.pods, this.#now());
    const limit = pLimit(this.#context.settings.launchConcurrency);
    await Promise.all(changed.map((claim) => limit(() => this.#update(claim))));
  }

  /** Candidates whose replacements came up drain now; those whose replacements failed are let go. */
  async advanceReplacements(): Promise<void> {
    const nowMs = this.#now().getTime();
    const { isolation } = this.#context;
    for (const claim of this.claims.filter((c) => isReplacing(c) && isolation.isDue(c))) {
      const progress = replacementProgress(claim, this.#claims, nowMs);
      if (progress.kind === 'Abort')
        await this.#isolated([claim], () =>
          this.#clear(claim, 'DisruptionFailed', `disruption abandoned: ${progress.reason}`),
        );
      else if (progress.kind === 'Proceed')
        await this.#markForDeletion(
          claim,
          claim.disruption?.reason ?? 'Disrupted',
          claim.disruption?.message ?? '',
        );
      else this.#tellWaiting(claim);
    }
  }

  /** While replacements come up, the disrupted node says so (core: queue.go waitOrTerminate). */
  #tellWaiting(claim: NodeClaimRecord): void {
    if (claim.nodeName === undefined) return;
    this.events.push(
      launchingEvent(claim.nodeName, claim.disruption?.reason ?? 'Disrupted'),
      waitingOnReadinessEvent(claim.nodeName),
    );
  }

  async #markForDeletion(
    claim: NodeClaimRecord,
    reason: string,
    message: string,
    forceful = false,
  ): Promise<void> {
    const pool = this.#context.snapshot.nodePools.find((p) => p.metadata.name === claim.nodePool);
    const mark = { claim, pool, reason, message, forceful };
    const marked = await markClaimForDeletion(this.#deps, this.#context.write, mark);
    if (marked === undefined) return;
    this.#claims.set(marked.claim.name, marked.claim);
    this.records.push(marked.record);
    this.decisions.push(marked.decision);
    this.events.push(...marked.events);
  }

  /** Nodes in a capacity block about to end are let go while they can still drain. */
  async expireCapacityBlocks(nodeClasses: readonly EC2NodeClass[]): Promise<void> {
    for (const { claim, message } of expiringCapacityBlockClaims(this.claims, nodeClasses)) {
      await this.#isolated([claim], () =>
        this.#markForDeletion(claim, CAPACITY_BLOCK_EXPIRING_REASON, message),
      );
    }
  }

  async plan(nodeClasses: readonly EC2NodeClass[]): Promise<DisruptionPlan> {
    const { snapshot } = this.#context;
    const claims = this.claims;
    const input = planningInput(
      {
        ...snapshot,
        nodes: nodesForPlanning(snapshot.nodes, claims, (c) => isGoing(c) || isReplacing(c)),
        nodeClaims: claims.map(planningClaim),
        nodeClasses,
      },
      {
        instanceTypes: this.#context.instanceTypes,
        region: this.#context.settings.region,
        limitCharges: claimCharges(claims, this.#context.instanceTypes),
        outOfTime: () => this.#now().getTime() >= this.#context.deadline,
      },
    );
    return planDisruption({
      ...input,
      networks: claimNetworks(claims),
      nowMs: this.#now().getTime(),
      cron: await budgetSchedules(input.nodePools),
      nominated: this.#context.nominated,
    });
  }

  #claimsOf(nodes: readonly string[]): NodeClaimRecord[] {
    const wanted = new Set(nodes);
    return this.claims.filter((c) => c.nodeName !== undefined && wanted.has(c.nodeName));
  }

  /**
   * Runs what touches the candidates' nodes; when it fails, they are backed off (and left out
   * of decisions until then) and the pass goes on.
   */
  async #isolated(
    candidates: readonly NodeClaimRecord[],
    work: () => Promise<void>,
  ): Promise<void> {
    try {
      await work();
    } catch (err) {
      for (const claim of candidates) {
        const failed = await this.#context.isolation.failed({ action: 'Disrupt', claim }, err);
        if (failed !== undefined) this.#claims.set(failed.name, failed);
      }
    }
  }

  /** Whether every candidate of the decision may be acted on now (none is backing off). */
  #isDue(decision: DisruptionDecision): boolean {
    return this.#claimsOf(decision.nodes).every((c) => this.#context.isolation.isDue(c));
  }

  /** The decision carried out, or its candidates backed off. */
  #tryExecute(decision: DisruptionDecision): Promise<void> {
    if (!this.#isDue(decision)) return Promise.resolve();
    this.commands.carriedOut.push(decision);
    return this.#isolated(this.#claimsOf(decision.nodes), () => this.execute(decision));
  }

  /** Carries a decision out: mark for deletion, or launch the replacements first. */
  async execute(decision: DisruptionDecision): Promise<void> {
    const candidates = this.#claimsOf(decision.nodes);
    if (decision.replacements.length === 0) {
      const forceful = decision.method === 'repair';
      for (const claim of candidates)
        await this.#markForDeletion(claim, decision.reason, decision.message, forceful);
      return;
    }
    for (const claim of candidates) {
      if (claim.nodeName !== undefined)
        await this.#deps.cluster.addTaints(claim.nodeName, [DISRUPTED_TAINT]);
    }
    const provisioning = new Provisioning(this.#deps, {
      ...this.#context,
      claims: this.claims,
      createdFor: decision.reason.toLowerCase(),
    });
    const result = emptyRound();
    for (const planned of decision.replacements) {
      await provisioning.createAndLaunch(planned, this.#context.instanceTypes, 0, result);
    }
    for (const claim of provisioning.claims) this.#claims.set(claim.name, claim);
    this.decisions.push(...result.decisions);
    const launched = result.launches.map((l) => l.claim.name);
    const decidedAt = this.#now().toISOString();
    for (const claim of candidates) {
      const replacing = {
        ...claim,
        disruption: {
          reason: decision.reason,
          message: decision.message,
          decidedAt,
          stage: 'Replacing' as const,
          method: decision.method,
          replacements: launched,
        },
      };
      if (launched.length < decision.replacements.length) {
        await this.#clear(
          replacing,
          'DisruptionFailed',
          'disruption abandoned: a replacement could not be launched',
        );
        continue;
      }
      const updated = await this.#update(replacing);
      this.#note('Replacing', claim, `${decision.reason}: ${decision.message}`);
      this.#tellWaiting(updated);
    }
  }

  async #validate(decision: DisruptionDecision): Promise<void> {
    const decidedAt = this.#now().toISOString();
    for (const claim of this.#claimsOf(decision.nodes)) {
      const disruption = {
        reason: decision.reason,
        message: decision.message,
        decidedAt,
        stage: 'Validating' as const,
        method: decision.method,
      };
      await this.#update({ ...claim, disruption });
      this.#note('Validating', claim, `${decision.reason}: ${decision.message}`);
    }
    this.commands.validating.push(decision);
    this.events.push(...consolidationApprovedEvents(decision));
  }

  /** Commands decided earlier are checked against this pass's plan: carried out, kept waiting, or dropped. */
  async settleValidating(
    plan: DisruptionPlan,
  ): Promise<{ matched: Set<DisruptionDecision>; waiting: boolean }> {
    const matched = new Set<DisruptionDecision>();
    let waiting = false;
    const groups = new Map<string, NodeClaimRecord[]>();
    for (const claim of this.claims.filter(isValidating)) {
      const key = `${claim.disruption?.method}@${claim.disruption?.decidedAt}`;
      groups.set(key, [...(groups.get(key) ?? []), claim]);
    }
    const nowMs = this.#now().getTime();
    for (const group of groups.values()) {
      const first = group[0] as NodeClaimRecord;
      const nodes = group.flatMap((c) => (c.nodeName === undefined ? [] : [c.nodeName]));
      const decision = plan.decisions.find(
        (d) => d.method === first.disruption?.method && sameNodes(d.nodes, nodes),
      );
      if (decision === undefined) {
        const stay = plan.staying.find((s) => nodes.includes(s.node));
        for (const claim of group)
          await this.#clear(
            claim,
            'DisruptionCancelled',
            `no longer ${first.disruption?.method}: ${stay?.reason ?? 'the decision changed'}`,
          );
        continue;
      }
      matched.add(decision);
      waiting = true;
      if (validationDue(first, nowMs)) await this.#tryExecute(decision);
    }
    return { matched, waiting };
  }

  async decideNew(
    plan: DisruptionPlan,
    matched: ReadonlySet<DisruptionDecision>,
    waiting: boolean,
  ): Promise<void> {
    for (const decision of plan.decisions.filter((d) => !matched.has(d))) {
      if (IMMEDIATE.has(decision.method)) await this.#tryExecute(decision);
      else if (!waiting && this.#isDue(decision)) await this.#validate(decision);
    }
  }

  tellBlocked(plan: DisruptionPlan): void {
    for (const stay of plan.staying) {
      if (BLOCKED_CODES.has(stay.code))
        this.events.push(
          nodeEvent(stay.node, 'DisruptionBlocked', stay.reason, { dedupeSeconds: 300 }),
        );
      if (stay.code === 'RepairBlocked')
        this.events.push(
          nodeEvent(stay.node, 'NodeRepairBlocked', NODE_REPAIR_BLOCKED_MESSAGE, {
            warning: true,
            dedupeSeconds: 900,
          }),
        );
      const unconsolidatable = unconsolidatableEvent(stay);
      if (unconsolidatable !== undefined) this.events.push(unconsolidatable);
    }
  }
}

export async function runDisruption(
  deps: PassDependencies,
  context: DisruptionStepContext,
): Promise<DisruptionOutcome> {
  const step = new DisruptionStep(deps, context);
  await step.cascadeDeletedPools();
  await step.recordPodEvents();
  await step.advanceReplacements();
  const nodeClasses = context.resolvedClasses;
  await step.expireCapacityBlocks(nodeClasses);
  const plan = await step.plan(nodeClasses);
  const { matched, waiting } = await step.settleValidating(plan);
  await step.decideNew(plan, matched, waiting);
  step.tellBlocked(plan);
  return {
    records: step.records,
    decisions: step.decisions,
    events: step.events,
    claims: step.claims,
    commands: step.commands,
  };
}
