/**
 * The `disruption` output contract (docs/design.md §6.3): each decision with its nodes, its
 * replacement and the saving, and every other managed node with the reason it stays. Fields beyond
 * the contract (reason, message, budgets, every replacement, `Balanced` scores, a code per
 * staying node) are added
 * for people and scripts that want them.
 */
import type {
  DisruptionDecision,
  DisruptionPlan,
  StayingNode,
} from '../../domain/disruption/disruption-plan-types.ts';
import { money, type NodeClaimReport, nodeClaimReport } from '../node-claim-report.ts';

/** A decision with its replacements as the report shows claims, the first also on its own. */
export interface DecisionReport extends Omit<DisruptionDecision, 'replacements'> {
  readonly replacement: NodeClaimReport | null;
  readonly replacements: readonly NodeClaimReport[];
}

export interface DisruptionReport {
  readonly decisions: readonly DecisionReport[];
  readonly staying: readonly StayingNode[];
}

export function toDisruptionReport(plan: DisruptionPlan): DisruptionReport {
  return {
    decisions: plan.decisions.map((d) => {
      const replacements = d.replacements.map(nodeClaimReport);
      return {
        method: d.method,
        reason: d.reason,
        nodes: d.nodes,
        replacement: replacements[0] ?? null,
        replacements,
        savingsPerHour: money(d.savingsPerHour),
        message: d.message,
        budgets: d.budgets,
        ...(d.scores === undefined ? {} : { scores: d.scores }),
      };
    }),
    staying: plan.staying.map((s) => ({ node: s.node, code: s.code, reason: s.reason })),
  };
}
