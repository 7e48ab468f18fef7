/**
 * The cost budgets of docs/design.md §7.2, judged on the plain 5,000-pod mix: the c/m/r pool's
 * plan ÷ the fractional lower bound (at most 1.05) and the any-type pool's ÷ one well-chosen
 * node group (at most 0.6).
 */
export interface CostRow {
  readonly mix: string;
  readonly pods: number;
  /** The plan's $/hour ÷ the fractional lower bound. */
  readonly ratio: number;
  /** The plan's $/hour ÷ the one-node-group yardstick, for plain mixes. */
  readonly nodeGroupRatio: number | undefined;
}

interface CostBudget {
  readonly mix: string;
  readonly measure: string;
  readonly limit: number;
  readonly figure: (row: CostRow) => number | undefined;
}

const BUDGETS: readonly CostBudget[] = [
  { mix: 'plain, c/m/r', measure: '÷ lower bound', limit: 1.05, figure: (r) => r.ratio },
  {
    mix: 'plain, any type',
    measure: '÷ one node group',
    limit: 0.6,
    figure: (r) => r.nodeGroupRatio,
  },
];

/** One line per budget: the figure, the limit and whether it was met. */
export function costVerdicts(rows: readonly CostRow[], pods = 5000): string[] {
  return BUDGETS.map(({ mix, measure, limit, figure }) => {
    const row = rows.find((r) => r.mix === mix && r.pods === pods);
    const value = row === undefined ? undefined : figure(row);
    if (value === undefined) return `${mix}, ${pods} pods ${measure}: not measured`;
    const verdict = value <= limit ? 'met' : 'missed';
    return `${mix}, ${pods} pods ${measure}: ${value.toFixed(3)} (budget ≤ ${limit}): ${verdict}`;
  });
}
