/**
 * Where Nodesmith keeps what must outlive one invocation (docs/design.md §4): NodePools and
 * EC2NodeClasses, NodeClaims, unavailable offerings, the one-writer lease, the events already
 * handled and the admission wake's window. Split by consumer: the api function needs only the
 * document stores, the interruption function the claims, offerings and events, the admission
 * wake only its window, the controller the rest.
 *
 * Every method may reject with ThrottledError when the backing service refuses for rate; the
 * other port errors are listed per method. Records handed out are copies: changing one changes
 * nothing stored. Lists come sorted by name (offerings by instance type, zone, capacity type).
 * Times are passed in (`now`); the store reads no clock for decisions.
 */

import type { ClusterLimits } from '../domain/limits/cluster-limits.ts';
import type { EC2NodeClass } from '../domain/node-class.ts';
import type { NodePool } from '../domain/node-pool.ts';
import type { NodeOverlay } from '../domain/overlays/node-overlay.ts';
import type { Fence, LeaseGrant } from '../domain/state/lease.ts';
import type {
  NewNodeClaimRecord,
  NodeClaimPhase,
  NodeClaimRecord,
} from '../domain/state/node-claim-record.ts';
import type { PastDisruption } from '../domain/state/past-disruption.ts';
import type { RefusingLimit } from '../domain/state/refusing-limit.ts';
import type { NamedDocument, StoredDocument } from '../domain/state/stored-document.ts';
import type { OfferingKey, UnavailableOffering } from '../domain/state/unavailable-offering.ts';
import type { WakeTurn } from '../domain/state/wake-window.ts';

/** A replacement of a stored document, valid only against the version the caller read. */
export interface DocumentChange<TDocument extends NamedDocument> {
  readonly document: TDocument;
  readonly hash: string;
  readonly expectedResourceVersion: number;
}

/**
 * NodePools, EC2NodeClasses, NodeOverlays or the cluster's limits by `metadata.name`, with
 * optimistic concurrency.
 *
 * @example
 * const stored = await state.nodePools.get('default');
 * if (stored) await state.nodePools.put({ document, hash, expectedResourceVersion: stored.resourceVersion });
 */
export interface DocumentStore<TDocument extends NamedDocument> {
  /** Stores a new document at resourceVersion 1. Rejects with ConflictError when the name is taken. */
  create(document: TDocument, hash: string): Promise<StoredDocument<TDocument>>;
  /**
   * Replaces the document and adds one to its resourceVersion. Rejects with ConflictError when
   * the stored version is not `expectedResourceVersion` (someone else changed it), with
   * NotFoundError when there is none. Repeating a successful put therefore conflicts.
   */
  put(change: DocumentChange<TDocument>): Promise<StoredDocument<TDocument>>;
  /** The stored document, or undefined. */
  get(name: string): Promise<StoredDocument<TDocument> | undefined>;
  list(): Promise<readonly StoredDocument<TDocument>[]>;
  /**
   * Removes the document. Idempotent: resolves when it is already gone. With
   * `expectedResourceVersion`, rejects with ConflictError when a different version is stored.
   */
  delete(name: string, expectedResourceVersion?: number): Promise<void>;
}

export type NodePoolStore = DocumentStore<NodePool>;
export type NodeClassStore = DocumentStore<EC2NodeClass>;
export type NodeOverlayStore = DocumentStore<NodeOverlay>;
/** The one ClusterLimits document, named `cluster`. */
export type ClusterLimitsStore = DocumentStore<ClusterLimits>;

/** A write that matters may carry the writer's fence; it is refused once a newer lease exists. */
export interface FencedWrite {
  readonly fence?: Fence;
}

export interface ClaimDeletion extends FencedWrite {
  /** Delete only this version; a different one rejects with ConflictError. */
  readonly expectedVersion?: number;
}

/**
 * NodeClaims: the intent recorded before a launch and its progress after.
 *
 * @example
 * const claim = await state.nodeClaims.create(newClaim, { fence: grant });
 * await state.nodeClaims.update({ ...claim, phase: 'Launched', instanceId }, { fence: grant });
 */
export interface NodeClaimStore {
  /**
   * Records a new claim at version 1. Rejects with NameTakenError (a ConflictError) when the
   * name exists, with ConflictError when the fence is stale. Creating is the "write intent" step: whoever loses the race must not launch.
   */
  create(claim: NewNodeClaimRecord, options?: FencedWrite): Promise<NodeClaimRecord>;
  /** The claim, or undefined. Strongly consistent: a write that resolved is seen. */
  get(name: string): Promise<NodeClaimRecord | undefined>;
  /**
   * Replaces the claim read at `claim.version` and returns it at the next version. Rejects with
   * ConflictError when the stored version differs or the fence is stale, with NotFoundError
   * when the claim is gone.
   */
  update(claim: NodeClaimRecord, options?: FencedWrite): Promise<NodeClaimRecord>;
  /**
   * Removes the claim. Idempotent: resolves when it is already gone. Rejects with ConflictError
   * when the fence is stale or `expectedVersion` does not match.
   */
  delete(name: string, options?: ClaimDeletion): Promise<void>;
  /** Every claim; strongly consistent. */
  list(): Promise<readonly NodeClaimRecord[]>;
  listByPhase(phase: NodeClaimPhase): Promise<readonly NodeClaimRecord[]>;
  listByPool(nodePool: string): Promise<readonly NodeClaimRecord[]>;
  /**
   * The claim whose instance this is, or undefined. The index behind it may lag a just-written
   * instance id by a moment; the claim returned is read fresh and still carries the id.
   */
  findByInstanceId(instanceId: string): Promise<NodeClaimRecord | undefined>;
}

/** Offerings EC2 recently could not fill, remembered for a while. */
export interface UnavailableOfferingStore {
  /**
   * Marks the offering unavailable until `ttlSeconds` after `now`. Idempotent; marking again
   * sets the new expiry.
   */
  mark(offering: OfferingKey, now: Date, ttlSeconds: number): Promise<UnavailableOffering>;
  /** The offerings still unavailable at `now`; expired ones are never returned. */
  listLive(now: Date): Promise<readonly UnavailableOffering[]>;
}

/**
 * The one-writer lease.
 *
 * @example
 * const grant = await state.lease.acquire(invocationId, now, 60);
 * if (grant === undefined) return; // another pass runs and will see the wake
 * try { await pass(grant); } finally { await state.lease.release(grant); }
 */
export interface LeaseStore {
  /**
   * Takes the lease for `ttlSeconds` when it is free, expired or already the holder's, with a
   * fencing token larger than any handed out before; resolves undefined while another holder's
   * lease is live. Not idempotent: each success is a new acquisition with a new token.
   */
  acquire(holder: string, now: Date, ttlSeconds: number): Promise<LeaseGrant | undefined>;
  /**
   * Extends the holder's lease to `ttlSeconds` after `now`, keeping its token. Rejects with
   * ConflictError when the lease was released or taken by another acquisition since.
   */
  renew(grant: LeaseGrant, now: Date, ttlSeconds: number): Promise<LeaseGrant>;
  /**
   * Whether `grant` still holds the lease at `now`: the lease carries its holder and token and
   * has not expired. A strongly consistent read, for the check before a side effect no
   * DynamoDB condition can undo (terminating an instance, evicting a pod).
   */
  isHeld(grant: LeaseGrant, now: Date): Promise<boolean>;
  /**
   * Gives the lease up so the next pass need not wait for expiry; fenced writes with its token
   * are refused from then on. Idempotent: resolves when the lease is already someone else's.
   */
  release(grant: LeaseGrant): Promise<void>;
}

/** Idempotency keys of events already handled. */
export interface EventsSeenStore {
  /**
   * Remembers `key` for `ttlSeconds` after `now`. Resolves true the first time (handle the
   * event), false while the key is remembered (a duplicate: skip it). Safe under races: of
   * concurrent calls with one key, exactly one resolves true.
   */
  recordOnce(key: string, now: Date, ttlSeconds: number): Promise<boolean>;
}

/** Disruptions that ended lately, for the status; each expires a day after it is recorded. */
export interface PastDisruptionStore {
  /** Records the ended disruption until `ttlSeconds` after `now`; recording it again replaces it. */
  record(ended: Omit<PastDisruption, 'expiresAt'>, now: Date, ttlSeconds: number): Promise<void>;
  /** Those not expired at `now`, newest first. */
  listRecent(now: Date): Promise<readonly PastDisruption[]>;
}

/** Limits refusing capacity now, so the moment one starts refusing is told exactly once. */
export interface RefusingLimitStore {
  /**
   * Records the limit as refusing; resolves true only for the call that started it, false
   * while it is already recorded. Safe under races: of concurrent calls exactly one gets true.
   */
  begin(limit: RefusingLimit): Promise<boolean>;
  /** Every limit refusing now, by key. */
  list(): Promise<readonly RefusingLimit[]>;
  /** The limit refuses no more. Idempotent. */
  end(key: string): Promise<void>;
}

/**
 * The admission wake's window, one for the cluster, shared by every relay container (domain
 * `takeWakeTurn`).
 *
 * @example
 * const { outcome, window } = await state.wakeWindow.takeTurn(now, 1000);
 * if (outcome === 'woke') await waker.wake(wake);
 */
export interface WakeWindowStore {
  /**
   * Takes a call's turn at `now`: `woke` opens a window of `windowMs` when none is open,
   * `deferred` takes the open window's delayed wake, `covered` finds it taken; each with the
   * window as the call leaves it. Safe under races: of concurrent calls exactly one opens a
   * window and exactly one takes its delayed wake.
   */
  takeTurn(now: Date, windowMs: number): Promise<WakeTurn>;
}

/** The whole state store; consumers take the parts they use (`Pick<StateStore, 'nodeClaims'>`). */
export interface StateStore {
  readonly nodePools: NodePoolStore;
  readonly nodeClasses: NodeClassStore;
  readonly nodeOverlays: NodeOverlayStore;
  readonly clusterLimits: ClusterLimitsStore;
  readonly nodeClaims: NodeClaimStore;
  readonly unavailableOfferings: UnavailableOfferingStore;
  readonly lease: LeaseStore;
  readonly eventsSeen: EventsSeenStore;
  readonly pastDisruptions: PastDisruptionStore;
  readonly refusingLimits: RefusingLimitStore;
  readonly wakeWindow: WakeWindowStore;
}
