/**
 * A NodeClaim as the state store records it: the intent written before a launch (docs/state.md;
 * "write intent before acting") and then every step of its life, so a pass that crashes can be
 * resumed by the next one.
 */
import type { InstanceNetwork } from '../instance-network.ts';
import type { Labels } from '../label-selector.ts';
import type { CapacityType } from '../labels.ts';
import type { NodeSelectorRequirement } from '../requirements/requirement.ts';
import type { Resources } from '../resources.ts';
import type { Taint } from '../taints.ts';

export const NodeClaimPhase = {
  pending: 'Pending',
  launched: 'Launched',
  registered: 'Registered',
  initialized: 'Initialized',
  disrupting: 'Disrupting',
  draining: 'Draining',
  terminating: 'Terminating',
} as const;
export type NodeClaimPhase = (typeof NodeClaimPhase)[keyof typeof NodeClaimPhase];

/** Phases in lifecycle order (docs/controller.md). */
export const NODE_CLAIM_PHASES: readonly NodeClaimPhase[] = Object.values(NodeClaimPhase);

/** The offering a launch asked for first, and after a launch the one EC2 actually filled. */
export interface ChosenOffering {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly pricePerHour: number;
}

/**
 * Why and since when a claim is going. Reasons are Karpenter's: `Unhealthy` for repair;
 * `Expired`, `Empty`, `Underutilized`, `Drifted` for voluntary disruption; `SpotInterrupted`,
 * `CapacityReservationInstanceInterrupted`, `InstanceStopping`, `InstanceTerminating`,
 * `ScheduledChange`, `RebalanceRecommended` for interruptions; `InstanceUnhealthy` for a failing
 * EC2 status check;
 * `NodeDeleted` when someone deleted its Node.
 */
export interface ClaimDisruption {
  readonly reason: string;
  /** One sentence for people: the decision's message, or the event that caused it. */
  readonly message: string;
  readonly decidedAt: string;
  /**
   * When pods still on the node are deleted rather than evicted: the decision plus the
   * NodePool's terminationGracePeriod. None means the drain waits for as long as it takes.
   */
  readonly terminateBy?: string;
  /**
   * Where a voluntary command stands before the claim is marked for deletion: `Validating`,
   * decided and waiting the 15 s Karpenter waits before it checks the decision again;
   * `Replacing`, tainted, with its replacements launched and not yet Initialized.
   */
  readonly stage?: 'Validating' | 'Replacing';
  /** The disruption method that decided it (`emptiness`, `consolidation-replace`, …). */
  readonly method?: string;
  /** Claims that must be Initialized before this one drains (a drift or consolidation replacement). */
  readonly replacements?: readonly string[];
}

/**
 * An action on the claim that keeps failing (a refused TerminateInstances, a node patch an
 * admission webhook rejects, an eviction answered 403): how often in a row, the last error, and
 * when the claim may be acted on again. Passes leave the claim alone until then.
 */
export interface ClaimFailure {
  /** What was being done: the lifecycle or termination step (`Register`, `Drain`, …). */
  readonly action: string;
  readonly message: string;
  /** Failures in a row; the backoff doubles with each. */
  readonly attempts: number;
  readonly failedAt: string;
  readonly retryAt: string;
}

/** When the claim entered each phase it has reached (ISO-8601); `Pending` is its creation. */
export type PhaseTimestamps = { readonly [P in NodeClaimPhase]?: string };

export interface NodeClaimRecord {
  /** The claim's name, also its id: the EC2 `ClientToken` and the instance's tag carry it. */
  readonly name: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  readonly requirements: readonly NodeSelectorRequirement[];
  /** Every compatible instance type, cheapest first. */
  readonly instanceTypeOptions: readonly string[];
  readonly offering: ChosenOffering;
  /**
   * The labels the node is to carry (pool, class, custom labels and, once launched, the type,
   * zone and capacity type it got): the launch hands them to the kubelet and registration syncs
   * them.
   */
  readonly labels?: Labels;
  /** The NodePool template's annotations, which registration copies onto the node. */
  readonly annotations?: Labels;
  readonly taints?: readonly Taint[];
  /** Taints the node starts with and something else removes (a CNI agent, say). */
  readonly startupTaints?: readonly Taint[];
  /** What the pods and daemons it was made for request. */
  readonly requests?: Resources;
  /**
   * The node's capacity and allocatable: predicted from the offering's type until launched, then
   * the launched type's. While the node has not joined, they stand in for it as capacity, so a
   * later pass does not launch for the same pods again (core: state/cluster.go counts in-flight
   * NodeClaims; docs/scheduling.md).
   */
  readonly capacity?: Resources;
  readonly allocatable?: Resources;
  readonly instanceId?: string;
  readonly providerID?: string;
  /** The AMI the instance was launched from: a class that now selects another has drifted it. */
  readonly imageId?: string;
  /** The subnet and security groups the instance got: a class that now selects others drifts it. */
  readonly network?: InstanceNetwork;
  /** The NodePool template hash the claim was made from (static drift compares it). */
  readonly nodePoolHash?: { readonly hash: string; readonly version: string };
  /**
   * The pods last seen on the node (a digest) and when they last changed: `consolidateAfter`
   * counts from then, departures included.
   */
  readonly pods?: { readonly digest: string; readonly lastPodEventTime: string };
  /** The EC2NodeClass hash the claim was launched with (static drift compares it). */
  readonly nodeClassHash?: { readonly hash: string; readonly version: string };
  readonly nodeName?: string;
  readonly phase: NodeClaimPhase;
  readonly timestamps: PhaseTimestamps;
  /** Why the claim is going, set when it is decided; with replacements, it waits for them. */
  readonly disruption?: ClaimDisruption;
  /** The action that failed last and the backoff it earned; gone once an action succeeds. */
  readonly failure?: ClaimFailure;
  /**
   * When Nodesmith adopted the node from Karpenter (ISO-8601); absent on nodes it launched.
   * Karpenter's finalizer and NodeClaim are let go with the node.
   */
  readonly adoptedAt?: string;
  /** 1 when created; every successful update adds one. */
  readonly version: number;
}

/** A claim about to be created: the store assigns the first version. */
export type NewNodeClaimRecord = Omit<NodeClaimRecord, 'version'>;
