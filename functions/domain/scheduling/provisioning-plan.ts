/** The decision a scheduling pass returns: data only, with machine-readable reasons. */
import type { InstanceType, Offering } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import type { LimitRefusal } from '../limits/limit-scope.ts';
import type { Requirements } from '../requirements/requirements.ts';
import type { Resources } from '../resources.ts';
import type { Taint } from '../taints.ts';
import type { UnfitCode } from './unfit.ts';

export interface PlannedNodeClaim {
  /** `<nodepool>-<n>`, numbered per pool in the order claims were opened. */
  readonly name: string;
  readonly nodePool: string;
  readonly nodeClass: string;
  /** The offering a launch tries first: the cheapest. */
  readonly instanceType: InstanceType;
  readonly offering: Offering;
  /** Every compatible type, cheapest first (at most 600, never breaking minValues). */
  readonly instanceTypeOptions: readonly InstanceType[];
  /**
   * What the claim's node must satisfy, narrowed to the chosen capacity type; a NodeClaim adds
   * `node.kubernetes.io/instance-type In instanceTypeOptions` when it is written.
   */
  readonly requirements: Requirements;
  readonly labels: Labels;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /** Pod keys (`namespace/name`) in placement order. */
  readonly pods: readonly string[];
  readonly requests: Resources;
}

export interface ExistingNodePlacement {
  readonly name: string;
  readonly pods: readonly string[];
}

export interface NodePoolReason {
  readonly nodePool?: string;
  readonly code: UnfitCode | 'Ignored' | 'Volumes';
  readonly message: string;
  /** For `Limits`: which limit refused. */
  readonly limit?: LimitRefusal;
}

export interface UnschedulablePod {
  readonly pod: string;
  /** One sentence: every pool's reason, joined. */
  readonly reason: string;
  readonly reasons: readonly NodePoolReason[];
}

export interface ProvisioningPlan {
  readonly nodeClaims: readonly PlannedNodeClaim[];
  readonly existingNodes: readonly ExistingNodePlacement[];
  readonly unschedulable: readonly UnschedulablePod[];
  /** Every pending pod considered, placed or not. */
  readonly pendingPods: number;
}
