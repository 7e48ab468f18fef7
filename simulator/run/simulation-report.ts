/**
 * What one `nodesmith simulate` run produces: the summary `--output json` prints
 * (docs/design.md §6.4, a stable contract), and the series, timeline, decisions and invariant
 * checks the HTML report draws. Times are seconds of simulated time since the run began.
 */
import type { CapacityType } from '../../functions/domain/labels.ts';
import type { UnschedulableGroup } from '../../functions/use-cases/plan/unschedulable-groups.ts';
import type { AwsActivity, KubernetesActivity } from './nodesmith.ts';

/** docs/design.md §6.4: exactly these fields, in this order. */
export interface SimulationSummary {
  readonly scenario: string;
  readonly pods: { readonly total: number; readonly running: number; readonly pending: number };
  readonly nodes: {
    readonly launched: number;
    readonly terminated: number;
    readonly running: number;
  };
  readonly costPerHour: number;
  /** From a pod becoming Unschedulable to the CreateFleet that launched capacity for it. */
  readonly decisionLatencyMs: { readonly p50: number; readonly p99: number };
  readonly launches: number;
  /** Pods re-planned in the same pass after a capacity error. */
  readonly replans: number;
  /** Instances launched beyond what one plan of the same snapshot asked for (must be 0). */
  readonly duplicateLaunches: number;
  /** Instances with the cluster's tags and no claim at the end (must be 0). */
  readonly leakedInstances: number;
  /** Pods still pending at the end, grouped by the reason given, as `plan` groups them. */
  readonly unschedulable: readonly UnschedulableGroup[];
  /** The invariants of docs/design.md §5 checked at the end; the exit status is 1 if one failed. */
  readonly invariants: readonly InvariantCheck[];
  /** Deployed runs only: the AWS calls per IAM action, and what IAM refused. */
  readonly aws?: AwsActivity;
  /** Deployed runs only: the Kubernetes requests the API server refused the functions (RBAC). */
  readonly kubernetes?: KubernetesActivity;
  /** Wakes sent to the controller's queue, by who sent them (docs/design.md §6.4). */
  readonly wakes: WakeCounts;
}

/** `admission` and `audit`: the relay's two entry points; `tick`: the schedule; `self`: the controller. */
export interface WakeCounts {
  readonly admission: number;
  readonly audit: number;
  readonly tick: number;
  readonly self: number;
}

/** The cluster at one moment of simulated time. */
export interface Sample {
  readonly t: number;
  readonly pendingPods: number;
  readonly runningPods: number;
  /** Running nodes by instance type. */
  readonly nodesByType: Readonly<Record<string, number>>;
  readonly costPerHour: number;
  /** Nodes voluntary disruption is taking away, summed over pools. */
  readonly disruptingNodes: number;
  /** What the pools' disruption budgets in force allow at this moment, summed. */
  readonly disruptionsAllowed: number;
  /** The cluster's hourly-cost limit in force (USD per hour), when there is one. */
  readonly costLimit?: number;
}

/** One line of the timeline a Karpenter user recognises. */
export interface TimelineEntry {
  readonly t: number;
  /** `found 120 provisionable pods`, `computed 4 new node claims`, `launched web-3 (m7g.large …)`. */
  readonly message: string;
}

export interface DecisionRow {
  readonly t: number;
  readonly kind: string;
  readonly nodeClaim: string;
  readonly nodePool: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly pricePerHour: number;
  readonly reason: string;
}

export interface InvariantCheck {
  readonly name: string;
  readonly held: boolean;
  readonly detail: string;
}

export interface SimulationReport {
  readonly summary: SimulationSummary;
  readonly seed: number;
  /** Simulated seconds the run covered. */
  readonly duration: number;
  readonly samples: readonly Sample[];
  readonly timeline: readonly TimelineEntry[];
  readonly decisions: readonly DecisionRow[];
}
