/**
 * A policy/v1 PodDisruptionBudget as voluntary disruption reads it: which pods it guards and how
 * many of them may go right now. The disruption controller inside the cluster keeps the status
 * current; Nodesmith only reads it, as Karpenter does before it picks a node to drain.
 */
import type { LabelSelector } from './label-selector.ts';

export interface PodDisruptionBudget {
  readonly namespace: string;
  readonly name: string;
  /**
   * The pods of its namespace it guards. Absent guards none; an empty selector guards every pod
   * of the namespace (policy/v1; `selectorMatches` has the same rule).
   */
  readonly selector?: LabelSelector;
  /** An absolute count or a percentage such as `"50%"`; at most one of the two is set. */
  readonly minAvailable?: number | string;
  readonly maxUnavailable?: number | string;
  /** `AlwaysAllow` lets pods that are not Ready go even when the budget is spent. */
  readonly unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  /** Evictions the budget allows now (status); 0 means an eviction would be refused. */
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
}
