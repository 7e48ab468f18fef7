/**
 * The checks every graceful method makes before it simulates anything (core: state/statenode.go
 * ValidateNodeDisruptable and ValidatePodsDisruptable): node-level protection, nomination, pods
 * that may not be evicted now, and — for consolidation — `consolidateAfter`.
 */
import { formatDuration } from '../../duration.ts';
import type { Candidate } from '../candidate.ts';
import type { StayCode } from '../disruption-plan-types.ts';
import type { DisruptionState } from '../disruption-state.ts';
import { firstPodBlocker } from '../pod-blockers.ts';
import { consolidationDisabled } from '../unconsolidatable.ts';

export interface Blocker {
  readonly code: StayCode;
  readonly reason: string;
  /** Karpenter's `Unconsolidatable` message for it, when Karpenter tells one. */
  readonly unconsolidatable?: string;
}

/** Node-level protection, then pods; `podsMayBlock` is false where a grace period will end the drain anyway. */
export function gracefulBlocker(
  state: DisruptionState,
  candidate: Candidate,
  podsMayBlock = true,
): Blocker | undefined {
  const node = state.nodeBlocker(candidate);
  if (node !== undefined) return node;
  if (!podsMayBlock) return undefined;
  const pods = firstPodBlocker(candidate.pods, state.budgets, state.nowMs);
  return pods === undefined ? undefined : { code: 'PodsBlock', reason: pods };
}

/** Whether `consolidateAfter` has passed since the node's pods last changed. */
export function consolidateAfterBlocker(
  state: DisruptionState,
  candidate: Candidate,
): Blocker | undefined {
  const at = state.consolidatableAtMs(candidate);
  if (at === undefined) {
    return {
      code: 'ConsolidateAfter',
      reason: 'consolidateAfter is Never for its NodePool',
      unconsolidatable: consolidationDisabled(candidate.pool.metadata.name),
    };
  }
  if (state.nowMs >= at) return undefined;
  const after = candidate.pool.spec.disruption?.consolidateAfter ?? '0s';
  return {
    code: 'ConsolidateAfter',
    reason: `consolidateAfter (${after}) has not passed since its pods last changed: ${formatDuration(at - state.nowMs)} left`,
  };
}

/** The budget line for a decision: what the pool allowed before it and which budget said so. */
export function budgetLine(
  state: DisruptionState,
  candidates: readonly Candidate[],
  reason: 'Empty' | 'Drifted' | 'Underutilized',
) {
  const byPool = new Map<string, Candidate[]>();
  for (const c of candidates)
    byPool.set(c.pool.metadata.name, [...(byPool.get(c.pool.metadata.name) ?? []), c]);
  return [...byPool.values()].map((group) => {
    const pool = (group[0] as Candidate).pool;
    const allowance = state.allowance(pool, reason);
    return {
      nodePool: pool.metadata.name,
      nodes: group.length,
      allowed: Number.isFinite(allowance.allowed) ? allowance.allowed : null,
      ...(allowance.budget === undefined ? {} : { budget: allowance.budget }),
    };
  });
}

export function budgetReason(
  state: DisruptionState,
  candidate: Candidate,
  reason: 'Empty' | 'Drifted' | 'Underutilized',
): string {
  const allowance = state.allowance(candidate.pool, reason);
  const budget = allowance.budget ?? 'the default budget (nodes: 10%)';
  return `over the ${reason} budget of NodePool ${candidate.pool.metadata.name}: ${budget} allows ${allowance.budgeted} at a time, counting nodes already going or NotReady and those this pass takes`;
}
