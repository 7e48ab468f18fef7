/**
 * Attribute names and item keys of the two tables. The state table keeps one partition per kind
 * for the small, listed kinds (pools, classes, offerings, the lease) so a strongly consistent
 * Query lists them, and one partition per event key for events seen, which are only ever
 * addressed one at a time and can arrive in bursts.
 */
import {
  CLAIM_NAME,
  INSTANCE_ID,
  STATE_PK,
  STATE_SK,
  STATE_TTL,
  WAKE_WINDOW_PARTITION,
} from '../../contract/state-tables.ts';
import type { OfferingKey } from '../../domain/state/unavailable-offering.ts';
import { offeringId } from '../../domain/state/unavailable-offering.ts';

export const StateAttribute = {
  pk: STATE_PK,
  sk: STATE_SK,
  document: 'document',
  hash: 'hash',
  resourceVersion: 'resourceVersion',
  holder: 'holder',
  fencingToken: 'fencingToken',
  revision: 'revision',
  expiresAt: 'expiresAt',
  acquiredAt: 'acquiredAt',
  previousAcquiredAt: 'previousAcquiredAt',
  endsAt: 'endsAt',
  deferredTaken: 'deferredTaken',
  ttl: STATE_TTL,
} as const;

export const ClaimAttribute = {
  name: CLAIM_NAME,
  nodePool: 'nodePool',
  phase: 'phase',
  instanceId: INSTANCE_ID,
  version: 'version',
} as const;

export const Partition = {
  nodePool: 'NodePool',
  nodeClass: 'EC2NodeClass',
  nodeOverlay: 'NodeOverlay',
  clusterLimits: 'ClusterLimits',
  unavailableOffering: 'UnavailableOffering',
  lease: 'Lease',
  pastDisruption: 'PastDisruption',
  refusingLimit: 'RefusingLimit',
  claimsRevision: 'ClaimsRevision',
  wakeWindow: WAKE_WINDOW_PARTITION,
} as const;
export type DocumentPartition =
  | typeof Partition.nodePool
  | typeof Partition.nodeClass
  | typeof Partition.nodeOverlay
  | typeof Partition.clusterLimits;

export interface StateKey {
  readonly pk: string;
  readonly sk: string;
}

/** The single lease: one cluster, one writer (docs/design.md §1.2). */
export const LEASE_KEY: StateKey = { pk: Partition.lease, sk: 'controller' };

/**
 * The count of claim writes not fenced by the lease (docs/state.md, "Warm claims"): a warm
 * controller reads it to know whether anyone but a pass wrote a claim since it last read them.
 */
export const CLAIMS_REVISION_KEY: StateKey = { pk: Partition.claimsRevision, sk: 'claims' };

/** The admission wake's one window, shared by every relay container (domain wake-window.ts). */
export const WAKE_WINDOW_KEY: StateKey = { pk: Partition.wakeWindow, sk: 'admission' };

export function documentKey(partition: DocumentPartition, name: string): StateKey {
  return { pk: partition, sk: name };
}

export function offeringKey(offering: OfferingKey): StateKey {
  return { pk: Partition.unavailableOffering, sk: offeringId(offering) };
}

/** One per limit (`cluster/nodes`, `nodepool/web/cpu`). */
export function refusingLimitKey(key: string): StateKey {
  return { pk: Partition.refusingLimit, sk: key };
}

/** One per claim: a claim name is never reused, and recording it again replaces it. */
export function pastDisruptionKey(nodeClaim: string): StateKey {
  return { pk: Partition.pastDisruption, sk: nodeClaim };
}

export function eventSeenKey(key: string): StateKey {
  return { pk: `EventSeen#${key}`, sk: 'EventSeen' };
}
