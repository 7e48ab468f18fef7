/**
 * One pass's claims as provisioning makes them: planned against every claim so far, checked
 * against live limits, written `Pending`, launched, and recorded with what came of the launch.
 */

import { nodeClassHash } from '../../domain/disruption/node-class-hash.ts';
import { templateHash } from '../../domain/disruption/template-hash.ts';
import type { InstanceType } from '../../domain/instance-type.ts';
import { pendingClaimRecord } from '../../domain/lifecycle/claim-record.ts';
import { nodesForPlanning, planningClaim } from '../../domain/lifecycle/planning-claim.ts';
import { limitExceeded } from '../../domain/lifecycle/pool-limits.ts';
import { podKey } from '../../domain/pod.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type {
  PlannedNodeClaim,
  ProvisioningPlan,
  UnschedulablePod,
} from '../../domain/scheduling/provisioning-plan.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { OfferingKey } from '../../domain/state/unavailable-offering.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { defaultNodeClass } from '../instance-types-by-pool.ts';
import { type LaunchOutcome, launchClaim } from './claim-launch.ts';
import { decisionOf, podsReason } from './decisions.ts';
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
}

/** One round's work: the claims launched and the pods whose claims hit a capacity error. */
export interface RoundResult {
  readonly launches: LaunchRecord[];
  readonly failures: LaunchFailure[];
  readonly decisions: Decision[];
  readonly unavailable: OfferingKey[];
  readonly replan: Set<string>;
  readonly refused: UnschedulablePod[];
}

export class Provisioning {
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
      nodes: nodesForPlanning(cluster.nodes, this.#claims),
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
    const pool = snapshot.nodePools.find((p) => p.metadata.name === planned.nodePool);
    const stampedClass = snapshot.nodeClasses.find((c) => c.metadata.name === planned.nodeClass);
    const record = pendingClaimRecord(
      planned,
      deps.newClaimName(planned.nodePool),
      deps.clock.now(),
      {
        ...(pool === undefined ? {} : { nodePoolHash: templateHash(pool) }),
        ...(stampedClass === undefined ? {} : { nodeClassHash: nodeClassHash(stampedClass) }),
      },
    );
    // Counted at once, before the write resolves, so launches running beside this one see it
    // when they check the pool's limits.
    this.#claims.push({ ...record, version: 0 });
    const pending = await deps.state.nodeClaims.create(record, write);
    this.#replace(pending);
    const nodeClass = stampedClass ?? defaultNodeClass(planned.nodeClass);
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

export function emptyRound(): RoundResult {
  return {
    launches: [],
    failures: [],
    decisions: [],
    unavailable: [],
    replan: new Set(),
    refused: [],
  };
}
