/**
 * Provisioning: one pass's claims as it makes them, planned against every claim so far, checked
 * against live limits, written `Pending`, launched, and recorded with what came of the launch.
 * Its rounds (a capacity error re-plans the failed claims' pods) are in provisioning-step.ts;
 * disruption uses it to launch replacements.
 */

import { nodeClassHash } from '../../domain/disruption/node-class-hash.ts';
import { templateHash } from '../../domain/disruption/template-hash.ts';
import type { InstanceType } from '../../domain/instance-type.ts';
import { pendingClaimRecord } from '../../domain/lifecycle/claim-record.ts';
import { nodesForPlanning, planningClaim } from '../../domain/lifecycle/planning-claim.ts';
import { claimCharges, isInterrupted } from '../../domain/limits/claim-charges.ts';
import { covers, type LimitScope, limitScopes } from '../../domain/limits/limit-scope.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import { podKey } from '../../domain/pod.ts';
import { type Admission, admitClaim } from '../../domain/scheduling/claim-admission.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import { planningInput } from '../../domain/scheduling/planning-input.ts';
import type {
  PlannedNodeClaim,
  ProvisioningPlan,
  UnschedulablePod,
} from '../../domain/scheduling/provisioning-plan.ts';
import type { NewNodeClaimRecord, NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { OfferingKey } from '../../domain/state/unavailable-offering.ts';
import type { Decision } from '../../ports/decisions.ts';
import { NameTakenError } from '../../ports/errors.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { type LaunchOutcome, launchClaim } from './claim-launch.ts';
import { type DecisionLabels, decisionOf, podsReason } from './decisions.ts';
import type { PassDependencies, PassSettings } from './pass-dependencies.ts';
import type { LaunchFailure, LaunchRecord } from './pass-report.ts';
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
  /**
   * Why the claims are made, as Karpenter's `karpenter_nodeclaims_created_total` labels it:
   * `provisioned` unless they replace disrupted nodes (core: provisioning/provisioner.go).
   */
  readonly createdFor?: string;
}

/** One round's work: the claims launched and the pods whose claims hit a capacity error. */
export interface RoundResult {
  readonly launches: LaunchRecord[];
  readonly failures: LaunchFailure[];
  readonly decisions: Decision[];
  readonly unavailable: OfferingKey[];
  readonly replan: Set<string>;
  readonly refused: UnschedulablePod[];
  /** Claims a limit refused at launch, with its message: a static pool's have no pod to tell. */
  readonly refusedClaims: { readonly nodePool: string; readonly message: string }[];
}

/**
 * Names tried for one claim. At 36^5 names, even 100,000 claims make a second collision in a row
 * about one in a million; a third means something other than chance.
 */
const NAME_ATTEMPTS = 3;

export class Provisioning {
  readonly #deps: PassDependencies;
  readonly #context: ProvisioningContext;
  /** By name, in the order claims came: a launch replaces its claim in place. */
  readonly #claims: Map<string, NodeClaimRecord>;
  /** The claims limits count, as the store held them when this pass first needed them. */
  readonly #live = new Map<string, Promise<readonly NodeClaimRecord[]>>();
  readonly #scopes: readonly LimitScope[];

  constructor(deps: PassDependencies, context: ProvisioningContext) {
    this.#deps = deps;
    this.#context = context;
    this.#claims = new Map(context.claims.map((claim) => [claim.name, claim]));
    this.#scopes = limitScopes(context.snapshot);
  }

  plan(
    focus: ReadonlySet<string> | undefined,
    types: ReadonlyMap<string, readonly InstanceType[]>,
  ): ProvisioningPlan {
    const { snapshot, settings } = this.#context;
    const pods =
      focus === undefined
        ? snapshot.pods
        : snapshot.pods.filter((p) => p.nodeName !== undefined || focus.has(podKey(p)));
    const claims = this.claims;
    const input = planningInput(
      {
        ...snapshot,
        pods,
        nodes: nodesForPlanning(snapshot.nodes, claims),
        nodeClaims: claims.map(planningClaim),
      },
      {
        instanceTypes: types,
        region: settings.region,
        limitCharges: claimCharges(claims, this.#context.instanceTypes),
        requireUnschedulableMark: true,
        outOfTime: () => this.#deps.clock.now().getTime() >= this.#context.deadline,
      },
    );
    return planProvisioning(input);
  }

  /**
   * The limit re-check, then the claim written `Pending`, then the launch: the write is the
   * promise not to launch twice.
   */
  async createAndLaunch(
    proposed: PlannedNodeClaim,
    types: ReadonlyMap<string, readonly InstanceType[]>,
    round: number,
    result: RoundResult,
  ): Promise<void> {
    const stored = await this.#storedClaims(proposed.nodePool);
    // From here to the placeholder below nothing awaits, so no launch beside this one can pass
    // the limit check in between.
    const admission = this.#admit(proposed, stored);
    if (!admission.admitted) {
      const { refusal } = admission;
      const reason = refusal.message;
      const reasons = [
        { nodePool: proposed.nodePool, code: 'Limits' as const, message: reason, limit: refusal },
      ];
      result.refused.push(...proposed.pods.map((pod) => ({ pod, reason, reasons })));
      result.refusedClaims.push({ nodePool: proposed.nodePool, message: reason });
      return;
    }
    const { planned } = admission;
    const overrun = this.#overrun(planned, stored);
    const deps = this.#deps;
    const { snapshot, write } = this.#context;
    const pool = snapshot.nodePools.find((p) => p.metadata.name === planned.nodePool);
    const stampedClass = snapshot.nodeClasses.find((c) => c.metadata.name === planned.nodeClass);
    const record = pendingClaimRecord(
      planned,
      deps.newClaimName(planned.nodePool),
      deps.clock.now(),
      {
        ...(pool === undefined ? {} : poolStamps(pool)),
        ...(stampedClass === undefined ? {} : { nodeClassHash: nodeClassHash(stampedClass) }),
      },
    );
    const pending = await this.#create(record, write);
    const outcome = await launchClaim(deps, {
      claim: pending,
      nodeClasses: snapshot.nodeClasses,
      instanceTypes: types.get(planned.nodePool) ?? [],
      write,
    });
    this.#record(outcome, { planned, pending, round, overrun }, result);
  }

  /**
   * Records the claim, under another generated name while its name is taken: five random
   * characters, as Karpenter names claims, collide now and then among thousands of claims.
   * The claim is counted at once, before the write resolves, so launches running beside this
   * one see it when they check the pool's limits.
   */
  async #create(record: NewNodeClaimRecord, write: FencedWrite): Promise<NodeClaimRecord> {
    const { state, newClaimName } = this.#deps;
    for (let attempt = 1; ; attempt++) {
      this.#claims.set(record.name, { ...record, version: 0 });
      try {
        const created = await state.nodeClaims.create(record, write);
        this.#replace(created);
        return created;
      } catch (err) {
        if (!(err instanceof NameTakenError) || attempt >= NAME_ATTEMPTS) throw err;
        this.#drop(record.name);
        record = { ...record, name: newClaimName(record.nodePool) };
      }
    }
  }

  /**
   * The claims the pool's limits count, as the store holds them: read once a pass, and only
   * when a limit covers the pool (every claim for a cluster limit, the pool's for its own).
   */
  #storedClaims(nodePool: string): Promise<readonly NodeClaimRecord[]> {
    const scopes = this.#scopes.filter((scope) => covers(scope, nodePool));
    if (scopes.length === 0) return Promise.resolve([]);
    const whole = scopes.some((scope) => scope.nodePool === undefined);
    const key = whole ? '' : nodePool;
    let stored = this.#live.get(key);
    if (stored === undefined) {
      const claims = this.#deps.state.nodeClaims;
      stored = whole ? claims.list() : claims.listByPool(nodePool);
      this.#live.set(key, stored);
    }
    return stored;
  }

  /**
   * The limits checked again against live usage: the claims the store holds with those this
   * pass has written or is writing, each at the worst its launch can fill.
   */
  #admit(planned: PlannedNodeClaim, stored: readonly NodeClaimRecord[]): Admission {
    // No limit covers the pool: nothing to count, which would cost every claim of the cluster.
    if (!this.#limited(planned)) return { admitted: true, planned };
    const usage = this.#usage(stored);
    return admitClaim(planned, this.#scopes, claimCharges(usage, this.#context.instanceTypes));
  }

  #limited(planned: PlannedNodeClaim): boolean {
    return this.#scopes.some((scope) => covers(scope, planned.nodePool));
  }

  /**
   * The limit an admitted claim takes usage past while interrupted nodes are still counted:
   * their replacements may launch at a limit (losing the node is worse), and the launch says so.
   */
  #overrun(planned: PlannedNodeClaim, stored: readonly NodeClaimRecord[]): string | undefined {
    if (!this.#limited(planned)) return undefined;
    const usage = this.#usage(stored);
    if (!usage.some(isInterrupted)) return undefined;
    const charges = claimCharges(usage, this.#context.instanceTypes, true);
    const strict = admitClaim(planned, this.#scopes, charges);
    return strict.admitted ? undefined : `${strict.refusal.message}, while interrupted nodes drain`;
  }

  #usage(stored: readonly NodeClaimRecord[]): NodeClaimRecord[] {
    const ours = this.#claims;
    return [...ours.values(), ...stored.filter((c) => !ours.has(c.name))];
  }

  #record(
    outcome: LaunchOutcome,
    {
      planned,
      pending,
      round,
      overrun,
    }: {
      planned: PlannedNodeClaim;
      pending: NodeClaimRecord;
      round: number;
      /** The limit this launch takes usage past while interrupted nodes drain. */
      overrun: string | undefined;
    },
    result: RoundResult,
  ): void {
    const at = this.#deps.clock.now();
    const createdFor = this.#context.createdFor ?? PROVISIONED;
    if (outcome.kind === 'launched') {
      this.#replace(outcome.claim);
      result.launches.push({
        at: at.toISOString(),
        claim: outcome.claim,
        pods: planned.pods,
        round,
      });
      result.unavailable.push(...outcome.unavailable);
      const why = podsReason(planned.pods);
      const reason = overrun === undefined ? why : `${why}; ${overrun}`;
      result.decisions.push(decisionOf('Launched', outcome.claim, at, reason, { createdFor }));
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
      ...(outcome.kind === 'invalid' && outcome.nodeClassNotReady
        ? { nodeClassNotReady: true as const }
        : {}),
    });
    if (outcome.kind === 'retry') return;
    this.#drop(pending.name);
    const labels = { createdFor, ...droppedFor(outcome) };
    result.decisions.push(decisionOf('LaunchFailed', pending, at, outcome.reason, labels));
    if (outcome.kind === 'capacity') {
      result.unavailable.push(...outcome.offerings);
      for (const pod of planned.pods) result.replan.add(pod);
    }
  }

  #replace(claim: NodeClaimRecord): void {
    if (this.#claims.has(claim.name)) this.#claims.set(claim.name, claim);
  }

  #drop(name: string): void {
    this.#claims.delete(name);
  }

  get claims(): readonly NodeClaimRecord[] {
    return [...this.#claims.values()];
  }
}

/** Karpenter's reason for claims made for pending pods (core: metrics/constants.go). */
const PROVISIONED = 'provisioned';

/**
 * Why a refused launch dropped its claim, as Karpenter counts it in
 * `karpenter_nodeclaims_disrupted_total` (core: nodeclaim/lifecycle/launch.go).
 */
function droppedFor(outcome: LaunchOutcome): DecisionLabels {
  if (outcome.kind === 'capacity') return { disruptedFor: 'insufficient_capacity' };
  if (outcome.kind === 'invalid' && outcome.nodeClassNotReady)
    return { disruptedFor: 'nodeclass_not_ready' };
  return {};
}

export function emptyRound(): RoundResult {
  return {
    launches: [],
    failures: [],
    decisions: [],
    unavailable: [],
    replan: new Set(),
    refused: [],
    refusedClaims: [],
  };
}

/** What a claim takes from its pool: the template's hash and the annotations its node carries. */
function poolStamps(pool: NodePool) {
  const annotations = pool.spec.template.metadata?.annotations;
  return {
    nodePoolHash: templateHash(pool),
    ...(annotations === undefined ? {} : { annotations }),
  };
}
