/**
 * The `Balanced` consolidation policy's score (core: disruption/balanced.go, types.go
 * ScoreResult; designs/balanced-consolidation.md): a move's share of its pool's cost saved over
 * its share of the pool's disruption caused. A move passes when that score is at least 1/k,
 * k = 2: saving 10 % of the pool's cost may disrupt up to 20 % of its pods.
 */

/** core: apis/v1/nodepool.go BalancedK. */
export const BALANCED_K = 2;

/** core: types.go PerNodeBaseDisruptionCost, the cost of draining a node at all. */
export const PER_NODE_BASE_DISRUPTION_COST = 1;

/** What a pool costs per hour and what disrupting all of it would cost (core: NodePoolTotals). */
export interface PoolTotals {
  readonly totalCost: number;
  readonly totalDisruptionCost: number;
}

export interface ScoreResult {
  readonly savingsFraction: number;
  readonly disruptionFraction: number;
  readonly k: number;
}

/** Savings over disruption; 0 when nothing is saved, +∞ when nothing is disrupted. */
export function score(result: ScoreResult): number {
  if (result.savingsFraction <= 0) return 0;
  if (result.disruptionFraction === 0) return Number.POSITIVE_INFINITY;
  return result.savingsFraction / result.disruptionFraction;
}

export function threshold(result: ScoreResult): number {
  return 1 / result.k;
}

export function isApproved(result: ScoreResult): boolean {
  return score(result) >= threshold(result);
}

/** core: ScoreMove. A pool with no cost or no disruption to normalise against scores 0. */
export function scoreMove(
  savings: number,
  disruptionCost: number,
  totals: PoolTotals,
  k: number = BALANCED_K,
): ScoreResult {
  if (totals.totalCost <= 0 || totals.totalDisruptionCost <= 0) {
    return { savingsFraction: 0, disruptionFraction: 0, k };
  }
  return {
    savingsFraction: savings / totals.totalCost,
    disruptionFraction: disruptionCost / totals.totalDisruptionCost,
    k,
  };
}

/** Go's `%.Nf`: +Inf for infinity. */
function fixed(value: number, digits: number): string {
  return value === Number.POSITIVE_INFINITY ? '+Inf' : value.toFixed(digits);
}

/** The figures of a score: the `ConsolidationApproved` message (core: events.go). */
export function scoreFigures(result: ScoreResult): string {
  return `k: ${result.k}, savings ${fixed(result.savingsFraction * 100, 1)}%, disruption ${fixed(result.disruptionFraction * 100, 1)}%`;
}

/** core: disruption/events/events.go consolidationScoreMessage. */
export function approvedMessage(result: ScoreResult): string {
  return `score ${fixed(score(result), 2)} >= threshold ${fixed(threshold(result), 2)} (${scoreFigures(result)})`;
}

/** The same figures for a move refused: Karpenter tells no event for it, only metrics. */
export function refusedMessage(result: ScoreResult): string {
  return `score ${fixed(score(result), 2)} < threshold ${fixed(threshold(result), 2)} (${scoreFigures(result)})`;
}
