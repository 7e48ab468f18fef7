/**
 * Decisions published for operators (docs/design.md §1.2 "decisions are published"): each launch,
 * registration, initialization and termination, with what it cost and why, put on the cluster's
 * event bus so people can route them to their own alarms and automation. docs/decisions.md
 * documents the shapes.
 */
import type { CapacityType } from '../domain/labels.ts';

export type DecisionKind =
  | 'Launched'
  | 'LaunchFailed'
  | 'Registered'
  | 'Initialized'
  /** A node Karpenter launched, now Nodesmith's (the `adoptKarpenterNodes` setting). */
  | 'Adopted'
  /** Marked for deletion: expired, empty, drifted, underused or interrupted (the reason says). */
  | 'Disrupting'
  | 'Terminated';

export interface Decision {
  readonly kind: DecisionKind;
  /** ISO-8601, from the pass's clock. */
  readonly time: string;
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly instanceId?: string;
  readonly nodeName?: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly pricePerHour: number;
  /** One sentence: `3 pods unschedulable: default/web-1, …`, `registration timed out after 15m`. */
  readonly reason: string;
  /** The claim's EC2NodeClass. */
  readonly nodeClass?: string;
  /**
   * `Launched` and `LaunchFailed` of a claim made in this pass: why it was made, as Karpenter's
   * `karpenter_nodeclaims_created_total` labels it — `provisioned`, or the lower-case disruption
   * reason (`drifted`, `underutilized`, `empty`) of the nodes it replaces.
   */
  readonly createdFor?: string;
  /**
   * Why the claim is going, as `karpenter_nodeclaims_disrupted_total` labels it: `Disrupting`
   * carries its disruption reason in snake case (`expired`, `empty`, `unhealthy`, …);
   * `LaunchFailed` that dropped the claim, `insufficient_capacity` or `nodeclass_not_ready`.
   */
  readonly disruptedFor?: string;
}

/** The moment a limit started refusing capacity: told once, until it refuses no more. */
export interface LimitReached {
  readonly kind: 'LimitReached';
  readonly time: string;
  /** The pool whose own limit it is; none for the cluster's. */
  readonly nodePool?: string;
  readonly limit: string;
  /** `NodePool web would exceed its hourly cost limit: $248.10 of $250.00 used`. */
  readonly message: string;
  /** Pods the limit left pending in the pass that reached it. */
  readonly pods: number;
}

export interface DecisionPublisher {
  /**
   * Publishes the decisions in order, best effort: a decision that cannot be published is
   * logged by the adapter and does not fail the pass (the pass's own work is already recorded).
   */
  publish(decisions: readonly (Decision | LimitReached)[]): Promise<void>;
}
