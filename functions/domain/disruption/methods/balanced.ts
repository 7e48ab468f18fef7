/**
 * `Balanced` consolidation (core: disruption/balanced.go EvaluateBalancedMove, CanPassThreshold):
 * a consolidation command is scored for each `Balanced` pool among its candidates — its share
 * of the command's net saving, in proportion to what its candidates cost, over the cost of moving
 * their pods — and goes ahead only when every such pool approves. Pools under another policy are
 * not scored. A candidate whose deletion, the best any command can do with it, would not pass is
 * not simulated at all.
 */
import { approvedMessage, isApproved, type ScoreResult, scoreMove } from '../balanced-score.ts';
import type { Candidate } from '../candidate.ts';
import type { PoolScore } from '../disruption-plan-types.ts';
import type { DisruptionState } from '../disruption-state.ts';

export interface BalancedVerdict {
  readonly approved: boolean;
  /** One per `Balanced` pool among the candidates. */
  readonly scores: readonly PoolScore[];
}

function isBalanced(candidate: Candidate): boolean {
  return candidate.pool.spec.disruption?.consolidationPolicy === 'Balanced';
}

function priceOf(candidates: readonly Candidate[]): number {
  return candidates.reduce((sum, c) => sum + (c.pricePerHour ?? 0), 0);
}

function byPool(candidates: readonly Candidate[]): Map<string, Candidate[]> {
  const out = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const name = c.pool.metadata.name;
    out.set(name, [...(out.get(name) ?? []), c]);
  }
  return out;
}

function poolScore(
  state: DisruptionState,
  pool: string,
  candidates: readonly Candidate[],
  savings: number,
): PoolScore {
  const disruption = candidates.reduce((sum, c) => sum + c.rescheduleDisruptionCost, 0);
  const totals = state.poolTotals(pool) ?? { totalCost: 0, totalDisruptionCost: 0 };
  const result = scoreMove(savings, disruption, totals);
  const nodes = candidates.map((c) => c.node.name);
  return { nodePool: pool, nodes, ...result, message: approvedMessage(result) };
}

/** Scores a command saving `savingsPerHour` (its sources' price less its replacement's). */
export function evaluateBalanced(
  state: DisruptionState,
  candidates: readonly Candidate[],
  savingsPerHour: number,
): BalancedVerdict {
  if (candidates.length === 0) return { approved: false, scores: [] };
  const groups = byPool(candidates);
  const sourceCost = priceOf(candidates);
  const scores: PoolScore[] = [];
  for (const [pool, members] of groups) {
    if (!members.some(isBalanced)) continue;
    // A command across pools splits its net saving by what each pool's candidates cost.
    const share = sourceCost > 0 && groups.size > 1 ? priceOf(members) / sourceCost : 1;
    scores.push(poolScore(state, pool, members, savingsPerHour * share));
  }
  return { approved: scores.every(isApproved), scores };
}

/**
 * The best score any command can reach with the candidate — its deletion's, saving its whole
 * price — when its pool is `Balanced` (core: CanPassThreshold); undefined when it is not scored.
 */
export function deletionScore(
  state: DisruptionState,
  candidate: Candidate,
): ScoreResult | undefined {
  if (!isBalanced(candidate)) return undefined;
  const totals = state.poolTotals(candidate.pool.metadata.name);
  if (totals === undefined || totals.totalCost <= 0) return undefined;
  return scoreMove(candidate.pricePerHour ?? 0, candidate.rescheduleDisruptionCost, totals);
}
