/** What a controller pass works through: ports only, wired by the handler or by `simulate`. */

import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CloudProvider } from '../../ports/cloud-provider.ts';
import type { Cluster } from '../../ports/cluster.ts';
import type { DecisionPublisher } from '../../ports/decisions.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';

export interface PassSettings {
  /** The region nodes are labelled with. */
  readonly region: string;
  /** Launches of one pass in flight at once. */
  readonly launchConcurrency: number;
  /** Scheduling stops at this much time into the pass; what was decided is launched. */
  readonly deadlineMs: number;
  /**
   * The most the pass can run: what remains of the invocation when it starts (the function's
   * timeout). The lease is taken for this and a margin, so it outlives the pass however it ends.
   */
  readonly timeoutMs: number;
  /** Offerings that failed for capacity are skipped this long (Karpenter: 3 minutes). */
  readonly unavailableOfferingSeconds: number;
  /** The next pass while anything is in flight (Karpenter re-checks every few seconds). */
  readonly inFlightWakeSeconds: number;
  /** Rounds of same-pass re-planning after capacity errors. */
  readonly maxReplanRounds: number;
  /** The cluster's limits until some are set through the API (the deployment's `limits`). */
  readonly startingLimits?: ClusterLimits;
  /** Karpenter's settled nodes of Nodesmith's NodePools become Nodesmith's (adoption-step.ts). */
  readonly adoptKarpenterNodes?: boolean;
}

export const DEFAULT_PASS_SETTINGS: Omit<PassSettings, 'region'> = {
  launchConcurrency: 32,
  deadlineMs: 60_000,
  // The controller function's timeout (lib/nodesmith-functions.ts); the handler passes what
  // remains of the invocation instead.
  timeoutMs: 180_000,
  unavailableOfferingSeconds: 180,
  inFlightWakeSeconds: 10,
  maxReplanRounds: 10,
};

export interface PassDependencies {
  readonly state: StateStore;
  readonly cluster: Cluster;
  readonly cloud: CloudProvider;
  readonly decisions: DecisionPublisher;
  readonly waker: Waker;
  readonly clock: Clock;
  /** A new, unique claim name for the pool: `<pool>-<suffix>`, as Karpenter names them. */
  readonly newClaimName: (nodePool: string) => string;
  /** Who runs the pass (the invocation's request id): the lease holder. */
  readonly holder: string;
}
