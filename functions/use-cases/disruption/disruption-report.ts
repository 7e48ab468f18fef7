/**
 * The `disruption` output contract (docs/design.md §6.3): each decision with its nodes, its
 * replacement and the saving, and every other managed node with the reason it stays. Fields beyond
 * the contract (reason, message, budgets, every replacement, a code per staying node) are added
 * for people and scripts that want them.
 */
import type {
  DisruptionMethod,
  DisruptionPlan,
  StayCode,
} from '../../domain/disruption/disruption-plan-types.ts';
import type { PlannedNodeClaim } from '../../domain/scheduling/provisioning-plan.ts';

export interface ReplacementReport {
  readonly nodePool: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly pricePerHour: number;
  readonly instanceTypeOptions: readonly string[];
  readonly pods: readonly string[];
}

export interface DisruptionReport {
  readonly decisions: readonly {
    readonly method: DisruptionMethod;
    readonly reason: string;
    readonly nodes: readonly string[];
    readonly replacement: ReplacementReport | null;
    readonly replacements: readonly ReplacementReport[];
    readonly savingsPerHour: number;
    readonly message: string;
    readonly budgets: readonly {
      readonly nodePool: string;
      readonly nodes: number;
      readonly allowed: number | null;
      readonly budget?: string;
    }[];
  }[];
  readonly staying: readonly {
    readonly node: string;
    readonly code: StayCode;
    readonly reason: string;
  }[];
}

function money(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function replacementOf(claim: PlannedNodeClaim): ReplacementReport {
  return {
    nodePool: claim.nodePool,
    instanceType: claim.instanceType.name,
    zone: claim.offering.zone,
    capacityType: claim.offering.capacityType,
    pricePerHour: money(claim.offering.pricePerHour),
    instanceTypeOptions: claim.instanceTypeOptions.map((it) => it.name),
    pods: claim.pods,
  };
}

export function toDisruptionReport(plan: DisruptionPlan): DisruptionReport {
  return {
    decisions: plan.decisions.map((d) => {
      const replacements = d.replacements.map(replacementOf);
      return {
        method: d.method,
        reason: d.reason,
        nodes: d.nodes,
        replacement: replacements[0] ?? null,
        replacements,
        savingsPerHour: money(d.savingsPerHour),
        message: d.message,
        budgets: d.budgets,
      };
    }),
    staying: plan.staying.map((s) => ({ node: s.node, code: s.code, reason: s.reason })),
  };
}
