/**
 * What a pass decides from (docs/design.md §3.3). Everything EC2's status checks cannot change is
 * read while they run: NodePools, EC2NodeClasses, overlays, limits and live unavailable offerings
 * from the state store and then the pools' instance types and what each class selects now (its
 * AMIs, subnets, security groups…, which drift is judged by); nodes before pods from the cluster
 * (capacity over- rather than under-counted); the instances the cloud lists. The claims, which a
 * check may mark, are read once the checks are done, and when a check acted everything is read
 * again after it. An instance listed before the claims are read cannot lack its claim: only a
 * pass launches, writing the claim first, and this pass holds the lease. A claim written after
 * this read belongs to a pass that held the lease before us, so it is already in the claims we
 * read. A NodePool whose EC2NodeClass is not stored is read not ready (NodeClassNotFound), as
 * Karpenter's readiness controller reports it, even when no class is stored at all: it launches
 * nothing, its pods say why, and its nodes stay.
 */

import type { ClusterObjects, ClusterSnapshot } from '../../domain/cluster-snapshot.ts';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { UnavailableOffering } from '../../domain/state/unavailable-offering.ts';
import type { ManagedInstance } from '../../ports/cloud-provider.ts';
import { instanceTypesByPool, type PoolInstanceTypes } from '../instance-types-by-pool.ts';
import { limitsInForce } from '../limits/limits-in-force.ts';
import { markNodeClassesNotFound } from '../node-class-not-found.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import { resolvedClasses } from './resolved-classes.ts';
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

type SnapshotDocuments = Pick<
  PassSnapshot,
  'nodePools' | 'nodeClasses' | 'nodeOverlays' | 'unavailable' | 'clusterLimits'
>;

type Reads = Pick<PassDependencies, 'state' | 'cluster' | 'cloud'>;

/** What a pass reads while EC2's status checks run: all but the claims, which a check may mark. */
export interface EarlyReads {
  readonly documents: Promise<SnapshotDocuments>;
  readonly cluster: Promise<ClusterObjects>;
  readonly instances: Promise<readonly ManagedInstance[]>;
  readonly instanceTypes: Promise<PoolInstanceTypes>;
  readonly resolvedClasses: Promise<readonly EC2NodeClass[]>;
}

/** The snapshot, and what the cloud says of its pools and classes. */
export interface PassReads {
  readonly snapshot: PassSnapshot;
  readonly instanceTypes: PoolInstanceTypes;
  /** The snapshot's classes with what they select now (resolved-classes.ts). */
  readonly resolvedClasses: readonly EC2NodeClass[];
}

async function readDocuments(
  state: PassDependencies['state'],
  now: Date,
  startingLimits: ClusterLimits | undefined,
): Promise<SnapshotDocuments> {
  const [pools, classes, overlays, unavailable, inForce] = await Promise.all([
    state.nodePools.list(),
    state.nodeClasses.list(),
    state.nodeOverlays.list(),
    state.unavailableOfferings.listLive(now),
    limitsInForce(state.clusterLimits, startingLimits),
  ]);
  const nodeClasses = classes.map((c) => c.document);
  const { nodePools } = markNodeClassesNotFound({
    nodePools: pools.map((p) => p.document),
    nodeClasses,
  });
  return {
    nodePools,
    nodeClasses,
    nodeOverlays: overlays.map((o) => o.document),
    unavailable,
    ...(inForce.limits === undefined ? {} : { clusterLimits: inForce.limits }),
  };
}

/** Starts every read but the claims'. */
export function startReads(deps: Reads, now: Date, startingLimits?: ClusterLimits): EarlyReads {
  const documents = readDocuments(deps.state, now, startingLimits);
  const reads: EarlyReads = {
    documents,
    cluster: deps.cluster.snapshot(),
    instances: deps.cloud.listManaged(),
    instanceTypes: documents.then((read) => instanceTypesByPool(read, deps.cloud)),
    resolvedClasses: documents.then((read) => resolvedClasses(deps.cloud, read.nodeClasses)),
  };
  // Each is awaited later; one failing while another is awaited must not go unhandled meanwhile.
  for (const read of Object.values(reads)) read.catch(() => undefined);
  return reads;
}

/** Every early read settled, so none is still running (a warm snapshot syncs one at a time). */
async function settled(reads: EarlyReads): Promise<void> {
  await Promise.allSettled(Object.values(reads));
}

/** The claims, read now, and what was read early. */
async function gather(deps: Reads, reads: EarlyReads) {
  const claims = await deps.state.nodeClaims.list();
  const [documents, cluster, listed, instanceTypes, classes] = await Promise.all([
    reads.documents,
    reads.cluster,
    reads.instances,
    reads.instanceTypes,
    reads.resolvedClasses,
  ]);
  return { claims, documents, cluster, listed, instanceTypes, resolvedClasses: classes };
}

/**
 * The snapshot: the claims read now, the rest as read early, or read again when EC2's status
 * checks changed something (`statusChecksActed`: a claim marked, a node tainted).
 */
export async function readSnapshot(
  deps: Reads,
  early: EarlyReads,
  options: { now: Date; startingLimits?: ClusterLimits; statusChecksActed: boolean },
): Promise<PassReads> {
  let reads = early;
  if (options.statusChecksActed) {
    await settled(early);
    reads = startReads(deps, options.now, options.startingLimits);
  }
  const read = await gather(deps, reads).catch(async (err: unknown) => {
    // The pass fails: nothing it started may still be reading when the next one begins.
    await settled(reads);
    throw err;
  });
  const { claims, listed } = read;
  const untagged = await untaggedClaimInstances(deps.cloud, claims, listed);
  const snapshot: PassSnapshot = {
    ...read.cluster,
    ...read.documents,
    claims,
    instances: [...listed, ...untagged.instances],
    untagged,
  };
  return { snapshot, instanceTypes: read.instanceTypes, resolvedClasses: read.resolvedClasses };
}
