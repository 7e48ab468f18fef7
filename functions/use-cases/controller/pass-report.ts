/**
 * What one controller pass did, for the handler's logs and metrics and for the timeline of
 * `nodesmith simulate`. Times are ISO-8601 from the pass's clock.
 */

import type { DisruptionDecision } from '../../domain/disruption/disruption-plan-types.ts';
import type { OverlayConflict } from '../../domain/overlays/overlaid-instance-types.ts';
import type { PodStartups } from '../../domain/pod-startup.ts';
import type { PoolUsage } from '../../domain/pools/pool-usage.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { StaticShortfall } from '../../domain/static-pools/static-scaling.ts';
import type { Decision, LimitReached } from '../../ports/decisions.ts';
import type { InterruptionOutcome } from '../interruption/handle-interruption.ts';

export interface LaunchRecord {
  readonly at: string;
  readonly claim: NodeClaimRecord;
  /** `namespace/name` of the pods the claim was made for. */
  readonly pods: readonly string[];
  /** 0 for the first plan of the pass, then 1, 2… for re-plans after capacity errors. */
  readonly round: number;
}

export interface LaunchFailure {
  readonly at: string;
  readonly claim: string;
  readonly nodePool: string;
  readonly pods: readonly string[];
  readonly reason: string;
  /** Capacity errors are re-planned in the same pass; other failures wait. */
  readonly capacity: boolean;
  /** The claim's EC2NodeClass could not be found or resolved (Karpenter's NodeClassNotReady). */
  readonly nodeClassNotReady?: true;
}

export interface LifecycleRecord {
  readonly at: string;
  readonly kind: string;
  readonly claim?: string;
  readonly nodeName?: string;
  readonly instanceId?: string;
  readonly reason?: string;
}

/** A claim's action that failed: the claim is backed off and the pass carried on. */
export interface ClaimActionFailure {
  readonly at: string;
  /** The lifecycle or termination step (`Remove`, `Drain`, `TerminateInstance`, …). */
  readonly action: string;
  readonly claim?: string;
  readonly nodeName?: string;
  readonly instanceId?: string;
  readonly message: string;
  /** Failures in a row, and when the claim is acted on again (absent for orphans). */
  readonly attempts?: number;
  readonly retryAt?: string;
}

export interface PlanRound {
  readonly round: number;
  readonly pendingPods: number;
  readonly newNodeClaims: number;
  /** Pods the plan put on nodes and claims that already exist (including ones this pass made). */
  readonly onExistingCapacity: readonly string[];
  readonly unschedulable: number;
}

/** Voluntary disruption commands of a pass (docs/metrics.md counts them as Karpenter does). */
export interface DisruptionCommands {
  /** Started: marked for deletion, or their replacements launched. */
  readonly carriedOut: readonly DisruptionDecision[];
  /** Approved and left to validate 15 s later, as consolidation is. */
  readonly validating: readonly DisruptionDecision[];
}

export interface PassReport {
  /** False when another pass held the lease: this one did nothing. */
  readonly ran: boolean;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Pods kube-scheduler marked Unschedulable that provisioning acted on (first round). */
  readonly provisionablePods: number;
  readonly rounds: readonly PlanRound[];
  readonly launches: readonly LaunchRecord[];
  readonly failures: readonly LaunchFailure[];
  /** Pods re-planned in this pass after a capacity error. */
  readonly replannedPods: number;
  readonly lifecycle: readonly LifecycleRecord[];
  /** The decisions the pass published, in order: what Karpenter's metrics count (docs/metrics.md). */
  readonly decisions: readonly Decision[];
  /** Voluntary disruption commands the pass carried out or approved for validation. */
  readonly disruption: DisruptionCommands;
  /** Claims whose action failed in this pass; each is backed off and the pass went on. */
  readonly claimFailures: readonly ClaimActionFailure[];
  readonly unschedulable: readonly UnschedulablePod[];
  /** Claims not yet initialized when the pass ended. */
  readonly inFlight: number;
  /** Seconds until the self-wake the pass queued, if it queued one. */
  readonly nextWakeSeconds?: number;
  /** Nodes and cost per NodePool when the pass ended (none when it did not run). */
  readonly pools: readonly PoolUsage[];
  /** Limits that started refusing capacity in this pass. */
  readonly limitsReached: readonly LimitReached[];
  /** NodeOverlays left out for conflicting with one of the same weight (absent when none). */
  readonly overlayConflicts?: readonly OverlayConflict[];
  /** Static NodePools short of their replicas that could not launch all they lack, and why. */
  readonly staticShortfalls?: readonly StaticShortfall[];
  /**
   * What EC2's failing status checks did at the start of the pass, one per instance and
   * category; a check seen by an earlier pass is a `duplicate` (absent when none failed).
   */
  readonly statusChecks?: readonly InterruptionOutcome[];
  /**
   * Seconds from creation to Ready, and to binding, of the pods whose condition turned True since
   * the pass before (absent when none did, and at the first pass).
   */
  readonly podStartups?: PodStartups;
}

/** The report of a pass that did nothing at `at`, as one that did not get the lease returns it. */
export function emptyPassReport(at: string): PassReport {
  return {
    ran: false,
    startedAt: at,
    finishedAt: at,
    provisionablePods: 0,
    rounds: [],
    launches: [],
    failures: [],
    replannedPods: 0,
    lifecycle: [],
    decisions: [],
    disruption: { carriedOut: [], validating: [] },
    claimFailures: [],
    unschedulable: [],
    inFlight: 0,
    pools: [],
    limitsReached: [],
  };
}
