/**
 * The cluster as the planner sees it: one snapshot, whoever reads it (docs/design.md §3.3). A
 * controller pass and the API's dry run read the Kubernetes objects from the cluster and
 * Nodesmith's own documents from the state store; `nodesmith plan`, `disruption` and `simulate`
 * read both from files. Every reader gives every kind, so a plan means the same wherever its
 * snapshot came from; `planningInput` (scheduling/planning-input.ts) hands it to the planner.
 */
import type { DaemonSet } from './daemon-set.ts';
import type { ClusterLimits } from './limits/cluster-limits.ts';
import type { Namespace } from './namespace.ts';
import type { Node } from './node.ts';
import type { NodeClaim } from './node-claim.ts';
import type { EC2NodeClass } from './node-class.ts';
import type { NodePool } from './node-pool.ts';
import type { NodeOverlay } from './overlays/node-overlay.ts';
import type { Pod } from './pod.ts';
import type { PodDisruptionBudget } from './pod-disruption-budget.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from './volumes.ts';

/** What the Kubernetes API holds of the snapshot: the kinds the cluster reader lists. */
export interface ClusterObjects {
  readonly nodes: readonly Node[];
  /** Every pod that is not Succeeded or Failed, bound or pending. */
  readonly pods: readonly Pod[];
  readonly daemonSets: readonly DaemonSet[];
  readonly podDisruptionBudgets: readonly PodDisruptionBudget[];
  readonly persistentVolumes: readonly PersistentVolume[];
  readonly persistentVolumeClaims: readonly PersistentVolumeClaim[];
  readonly storageClasses: readonly StorageClass[];
  readonly runtimeClasses: readonly RuntimeClass[];
  readonly namespaces: readonly Namespace[];
}

/**
 * The cluster's objects and what Nodesmith plans them with: the NodeClaims (Nodesmith's claims
 * as the scheduler sees them, or Karpenter's in a dump), NodePools, EC2NodeClasses, NodeOverlays
 * and the cluster's limits, which a deployed Nodesmith keeps in its state store.
 */
export interface ClusterSnapshot extends ClusterObjects {
  readonly nodeClaims: readonly NodeClaim[];
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
  /** Laid over the instance types of the pools they select. */
  readonly nodeOverlays: readonly NodeOverlay[];
  /** Limits over every pool together, when some are set. */
  readonly clusterLimits?: ClusterLimits;
}
