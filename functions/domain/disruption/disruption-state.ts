/**
 * One disruption pass over a snapshot: the candidates, the nodes already known to stay (with the
 * first reason found, in Karpenter's order of checks), the decisions taken so far and the budget
 * each pool has left. Methods read it and record into it; nothing else is mutable.
 */

import { claimIndex, podsByNode } from '../by-node.ts';
import { durationOrNever } from '../duration.ts';
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import { hasCondition } from '../node-claim.ts';
import type { DisruptionReason, NodePool } from '../node-pool.ts';
import type { Pod } from '../pod.ts';
import type { PoolTotals } from './balanced-score.ts';
import { type Allowance, allowance } from './budgets.ts';
import {
  type Candidate,
  disruptionCost,
  isReschedulable,
  offeringPrice,
  rescheduleDisruptionCost,
} from './candidate.ts';
import type { DisruptionInput } from './disruption-input.ts';
import type { DisruptionDecision, StayCode, StayingNode } from './disruption-plan-types.ts';
import { doNotDisrupt } from './do-not-disrupt.ts';
import { type BudgetsByNamespace, budgetsByNamespace } from './pod-blockers.ts';

/** Karpenter's default `expireAfter`. */
export const DEFAULT_EXPIRE_AFTER_MS = 720 * 3_600_000;

export function isInitialized(node: Node, claim: NodeClaim | undefined): boolean {
  return (
    node.labels[Label.initialized] === 'true' ||
    (claim !== undefined && hasCondition(claim, 'Initialized'))
  );
}

function createdMs(node: Node, claim: NodeClaim | undefined): number {
  const stamp = claim?.metadata.creationTimestamp ?? node.creationTimestamp;
  return stamp === undefined ? Number.NaN : Date.parse(stamp);
}

export class DisruptionState {
  readonly input: DisruptionInput;
  readonly nowMs: number;
  readonly candidates: readonly Candidate[];
  readonly budgets: BudgetsByNamespace;
  readonly decisions: DisruptionDecision[] = [];
  readonly #staying = new Map<string, StayingNode>();
  readonly #decided = new Set<string>();
  readonly #counts = new Map<string, { nodes: number; disrupting: number }>();
  readonly #lastPodEvent = new Map<string, number>();
  readonly #totals = new Map<string, { totalCost: number; totalDisruptionCost: number }>();

  constructor(input: DisruptionInput) {
    this.input = input;
    this.nowMs = input.nowMs;
    this.budgets = budgetsByNamespace(input.podDisruptionBudgets);
    this.candidates = this.#collect();
  }

  #collect(): Candidate[] {
    const claimOf = claimIndex(this.input.nodeClaims);
    const pods = podsByNode(this.input.pods);
    const pools = new Map(this.input.nodePools.map((p) => [p.metadata.name, p]));
    const out: Candidate[] = [];
    for (const node of this.input.nodes) {
      const poolName = node.labels[Label.nodePool];
      const claim = claimOf(node);
      // Managed means a NodePool label *and* a claim (docs/design.md §6.1): a node Karpenter (or
      // anyone) launched keeps its label but is not Nodesmith's to disrupt, nor counted in its
      // budgets.
      if (poolName === undefined || claim === undefined) continue;
      this.#addToTotals(node, pools.get(poolName), pods.get(node.name) ?? []);
      const candidate = this.#classify(node, claim, pools.get(poolName), pods.get(node.name));
      if (candidate !== undefined) out.push(candidate);
    }
    return out;
  }

  /** A candidate, or the reason the managed node is none (recorded as it staying). */
  #classify(
    node: Node,
    claim: NodeClaim | undefined,
    pool: NodePool | undefined,
    pods: readonly Pod[] | undefined,
  ): Candidate | undefined {
    const initialized = isInitialized(node, claim);
    if (pool === undefined) {
      this.stay(
        node.name,
        'UnknownNodePool',
        `its NodePool ${node.labels[Label.nodePool]} is not known`,
      );
      return undefined;
    }
    if (initialized) this.#count(pool.metadata.name, !node.ready || node.deleting);
    if (node.deleting || claim?.metadata.deletionTimestamp !== undefined) {
      this.stay(node.name, 'Deleting', 'already being deleted');
    } else if (!initialized) {
      this.stay(node.name, 'NotInitialized', 'not initialized yet');
    } else {
      return this.#candidate(node, claim, pool, pods ?? []);
    }
    return undefined;
  }

  #candidate(
    node: Node,
    claim: NodeClaim | undefined,
    pool: NodePool,
    bound: readonly Pod[],
  ): Candidate {
    const pods = bound.filter(isReschedulable);
    const created = createdMs(node, claim);
    const expireAfter = this.expireAfterMs(pool, claim);
    const lifetimeLeft =
      expireAfter === undefined || Number.isNaN(created)
        ? 1
        : 1 - (this.nowMs - created) / expireAfter;
    const price = offeringPrice(node, this.input.instanceTypes.get(pool.metadata.name));
    const nodeClass = this.input.nodeClasses?.find(
      (c) => c.metadata.name === pool.spec.template.spec.nodeClassRef.name,
    );
    const network = claim === undefined ? undefined : this.input.networks?.get(claim.metadata.name);
    const events = pods.map((p) => (p.creationTimestamp ? Date.parse(p.creationTimestamp) : 0));
    const recorded = Date.parse(claim?.status?.lastPodEventTime ?? '');
    if (!Number.isNaN(recorded)) events.push(recorded);
    this.#lastPodEvent.set(node.name, Math.max(Number.isNaN(created) ? 0 : created, ...events));
    return {
      node,
      ...(claim === undefined ? {} : { claim }),
      pool,
      ...(nodeClass === undefined ? {} : { nodeClass }),
      ...(network === undefined ? {} : { network }),
      pods,
      ...(price.instanceType === undefined ? {} : { instanceType: price.instanceType }),
      ...(price.pricePerHour === undefined ? {} : { pricePerHour: price.pricePerHour }),
      ...(price.capacityType === undefined ? {} : { capacityType: price.capacityType }),
      createdMs: created,
      disruptionCost: disruptionCost(pods, lifetimeLeft),
      rescheduleDisruptionCost: rescheduleDisruptionCost(pods),
    };
  }

  /**
   * Every managed node of a pool, candidate or not, counts in its `Balanced` denominators
   * (core: balanced.go computeNodePoolTotals): its offering's price and the cost of moving its
   * pods.
   */
  #addToTotals(node: Node, pool: NodePool | undefined, bound: readonly Pod[]): void {
    if (pool === undefined) return;
    const name = pool.metadata.name;
    const totals = this.#totals.get(name) ?? { totalCost: 0, totalDisruptionCost: 0 };
    const price = offeringPrice(node, this.input.instanceTypes.get(name)).pricePerHour;
    // core: types.go resolveNodePrice counts an unknown or NaN price as 0.
    totals.totalCost += price !== undefined && Number.isFinite(price) ? price : 0;
    totals.totalDisruptionCost += rescheduleDisruptionCost(bound.filter(isReschedulable));
    this.#totals.set(name, totals);
  }

  /** The pool's `Balanced` denominators; undefined for a pool with no managed node. */
  poolTotals(pool: string): PoolTotals | undefined {
    return this.#totals.get(pool);
  }

  #count(pool: string, disrupting: boolean): void {
    const counts = this.#counts.get(pool) ?? { nodes: 0, disrupting: 0 };
    counts.nodes += 1;
    if (disrupting) counts.disrupting += 1;
    this.#counts.set(pool, counts);
  }

  /** `expireAfter` of the claim, else of its pool's template; undefined for `Never`. */
  expireAfterMs(pool: NodePool, claim: NodeClaim | undefined): number | undefined {
    const text = claim?.spec.expireAfter ?? pool.spec.template.spec.expireAfter;
    return durationOrNever(text, DEFAULT_EXPIRE_AFTER_MS);
  }

  /** When the node may be consolidated (`consolidateAfter` past its last pod change); undefined for `Never`. */
  consolidatableAtMs(candidate: Candidate): number | undefined {
    const after = durationOrNever(candidate.pool.spec.disruption?.consolidateAfter, 0);
    if (after === undefined) return undefined;
    return (this.#lastPodEvent.get(candidate.node.name) ?? 0) + after;
  }

  /** Nodes still inside their consolidateAfter window: no moved pod may land there. */
  settling(): ReadonlySet<string> {
    return new Set(
      this.candidates
        .filter((c) => {
          const at = this.consolidatableAtMs(c);
          return at !== undefined && at > this.nowMs;
        })
        .map((c) => c.node.name),
    );
  }

  /** Why graceful disruption may not touch this node at all now, or undefined. */
  nodeBlocker(candidate: Candidate): { code: StayCode; reason: string } | undefined {
    const protection = doNotDisrupt(
      candidate.node.annotations,
      candidate.node.creationTimestamp,
      this.nowMs,
    );
    if (protection.active) {
      return { code: 'DoNotDisrupt', reason: 'node is annotated karpenter.sh/do-not-disrupt' };
    }
    if (this.input.nominated?.has(candidate.node.name)) {
      return {
        code: 'Nominated',
        reason: 'nominated for pending pods that are on their way to it',
      };
    }
    return undefined;
  }

  isDecided(node: string): boolean {
    return this.#decided.has(node);
  }

  /** Records why a node stays; the first reason found is the one reported. */
  stay(node: string, code: StayCode, reason: string, unconsolidatable?: string): void {
    if (this.#staying.has(node) || this.#decided.has(node)) return;
    this.#staying.set(node, {
      node,
      code,
      reason,
      ...(unconsolidatable === undefined ? {} : { unconsolidatable }),
    });
  }

  decide(decision: DisruptionDecision, pools: readonly string[]): void {
    this.decisions.push(decision);
    for (const node of decision.nodes) {
      this.#decided.add(node);
      this.#staying.delete(node);
    }
    for (const pool of pools) {
      const counts = this.#counts.get(pool) ?? { nodes: 0, disrupting: 0 };
      counts.disrupting += 1;
      this.#counts.set(pool, counts);
    }
  }

  allowance(pool: NodePool, reason: DisruptionReason): Allowance {
    const counts = this.#counts.get(pool.metadata.name) ?? { nodes: 0, disrupting: 0 };
    return allowance(pool, reason, counts, this.nowMs, this.input.cron);
  }

  /** Candidates not decided yet. */
  open(): Candidate[] {
    return this.candidates.filter((c) => !this.#decided.has(c.node.name));
  }

  staying(): StayingNode[] {
    return [...this.#staying.values()].sort((a, b) =>
      a.node < b.node ? -1 : a.node > b.node ? 1 : 0,
    );
  }

  /** Names of the nodes decided so far: the simulations treat them as going. */
  decidedNodes(): ReadonlySet<string> {
    return this.#decided;
  }
}
