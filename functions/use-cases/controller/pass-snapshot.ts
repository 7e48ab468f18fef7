/**
 * What a pass decides from, read in docs/design.md §3.3's order: claims, pools, classes and
 * overlays from the state store first, then nodes before pods from the cluster (capacity over-
 * rather than under-counted), then the instances the cloud lists. A claim written after this
 * read belongs to a pass that held the lease before us, so it is already in the claims we read.
 * A NodePool whose EC2NodeClass is not stored is read not ready (NodeClassNotFound), as
 * Karpenter's readiness controller reports it, even when no class is stored at all: it launches
 * nothing, its pods say why, and its nodes stay.
 */

import type { ClusterSnapshot } from '../../domain/cluster-snapshot.ts';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { UnavailableOffering } from '../../domain/state/unavailable-offering.ts';
import type { ManagedInstance } from '../../ports/cloud-provider.ts';
import { limitsInForce } from '../limits/limits-in-force.ts';
import { markNodeClassesNotFound } from '../node-class-not-found.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import { type UntaggedClaimInstances, untaggedClaimInstances } from './untagged-claim-instances.ts';

/**
 * The cluster snapshot (docs/design.md §3.3) with what only a pass reads. Its NodeClaims are the
 * claim records as each step leaves them, seen by the scheduler through `planningClaim`.
 */
export interface PassSnapshot extends Omit<ClusterSnapshot, 'nodeClaims'> {
  readonly claims: readonly NodeClaimRecord[];
  readonly unavailable: readonly UnavailableOffering[];
  /** Nodesmith's instances: those listed by its tag and those of its claims found untagged. */
  readonly instances: readonly ManagedInstance[];
  /** What became of claims' instances that lacked the ownership tag. */
  readonly untagged: UntaggedClaimInstances;
}

export async function readSnapshot(
  deps: Pick<PassDependencies, 'state' | 'cluster' | 'cloud'>,
  now: Date,
  startingLimits?: ClusterLimits,
): Promise<PassSnapshot> {
  const [claims, pools, classes, overlays, unavailable, inForce] = await Promise.all([
    deps.state.nodeClaims.list(),
    deps.state.nodePools.list(),
    deps.state.nodeClasses.list(),
    deps.state.nodeOverlays.list(),
    deps.state.unavailableOfferings.listLive(now),
    limitsInForce(deps.state.clusterLimits, startingLimits),
  ]);
  const cluster = await deps.cluster.snapshot();
  const listed = await deps.cloud.listManaged();
  const untagged = await untaggedClaimInstances(deps.cloud, claims, listed);
  const nodeClasses = classes.map((c) => c.document);
  const { nodePools } = markNodeClassesNotFound({
    nodePools: pools.map((p) => p.document),
    nodeClasses,
  });
  return {
    ...cluster,
    claims,
    nodePools,
    nodeClasses,
    nodeOverlays: overlays.map((o) => o.document),
    unavailable,
    instances: [...listed, ...untagged.instances],
    untagged,
    ...(inForce.limits === undefined ? {} : { clusterLimits: inForce.limits }),
  };
}
