/** What voluntary disruption decides: data only, ready for the controller and the `disruption` command. */
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import type { ScoreResult } from './balanced-score.ts';

/** In the order a pass takes them (core: disruption/controller.go; docs/disruption.md). */
export type DisruptionMethod =
  | 'repair'
  | 'expiration'
  | 'emptiness'
  | 'drift'
  | 'consolidation-multi'
  | 'consolidation-delete'
  | 'consolidation-replace';

/** Karpenter's reason names: budgets are written against the last three. */
export type DecisionReason = 'Unhealthy' | 'Expired' | 'Empty' | 'Drifted' | 'Underutilized';

export interface BudgetUse {
  readonly nodePool: string;
  /** Nodes this decision takes from the pool. */
  readonly nodes: number;
  /** What the pool's budgets allowed for the reason before it (null: no budget applied). */
  readonly allowed: number | null;
  readonly budget?: string;
}

/** A `Balanced` pool's score for a consolidation that passed it (core: balanced.go). */
export interface PoolScore extends ScoreResult {
  readonly nodePool: string;
  /** The command's nodes of that pool. */
  readonly nodes: readonly string[];
  /** Karpenter's `ConsolidationApproved` message. */
  readonly message: string;
}

export interface DisruptionDecision {
  readonly method: DisruptionMethod;
  readonly reason: DecisionReason;
  /** Node names. */
  readonly nodes: readonly string[];
  /** Claims to launch (and see Initialized) before the nodes are drained. */
  readonly replacements: readonly PlannedNodeClaim[];
  /** What the nodes cost less what the replacements cost, per hour. */
  readonly savingsPerHour: number;
  /** One sentence for people and events. */
  readonly message: string;
  readonly budgets: readonly BudgetUse[];
  /** For consolidation of `Balanced` pools' nodes: each such pool's score. */
  readonly scores?: readonly PoolScore[];
}

export type StayCode =
  | 'Deleting'
  | 'RepairBlocked'
  | 'NotInitialized'
  | 'UnknownNodePool'
  | 'DoNotDisrupt'
  | 'Nominated'
  | 'PodsBlock'
  | 'Budget'
  | 'ConsolidateAfter'
  | 'ConsolidationPolicy'
  | 'NoPlaceForPods'
  | 'NoCheaperReplacement'
  | 'SpotToSpot'
  | 'ScoreBelowThreshold'
  | 'TooManyReplacements'
  | 'UnknownPrice'
  | 'OutOfTime'
  | 'StaticNodePool'
  | 'NodeLimit'
  | 'NoReplacement'
  | 'Later';

export interface StayingNode {
  readonly node: string;
  readonly code: StayCode;
  readonly reason: string;
  /** Karpenter's `Unconsolidatable` message, where Karpenter tells this on the node. */
  readonly unconsolidatable?: string;
}

export interface DisruptionPlan {
  readonly decisions: readonly DisruptionDecision[];
  /** Every other managed node, with the first reason it stays. */
  readonly staying: readonly StayingNode[];
}
