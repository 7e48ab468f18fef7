/**
 * watch: what a `GET <collection>?watch=true` sends, as kube-apiserver's cacher sends it
 * (kubernetes/kubernetes, staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go and
 * cache_watcher.go). A streamed list (`sendInitialEvents=true`, which a watch from no
 * resourceVersion or `0` is by default) sends every object the selectors pick as ADDED, then,
 * when bookmarks are allowed, a BOOKMARK at the revision of that state annotated
 * `k8s.io/initial-events-end: "true"`, then each change (watch-list-options.ts has when a watch
 * is one); from a resourceVersion, each change after it, from the watch cache, or one ERROR event
 * with the 410 Expired Status when the cache no longer holds them all. A change is judged against the selectors before and after it: an
 * object that stops matching is DELETED (its last content, at the change's revision), one that
 * starts matching is ADDED.
 */

import { checkSupportedFields, matchesFields, parseFieldSelector } from '../field-selector.ts';
import type { JsonObject } from '../json.ts';
import { matchesLabels, parseLabelSelector } from '../label-selector.ts';
import { labelsOf, namespaceOf } from '../object-meta.ts';
import { apiVersionOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { ApiError, badRequest } from '../status-errors.ts';
import type { WatchCacheEvent } from '../watch-cache.ts';
import type { Registry } from './context.ts';
import { selectObjects } from './read.ts';
import { sendInitialEventsOf } from './watch-list-options.ts';

/** kube-apiserver's `--min-request-timeout`; it picks between this and twice this at random. */
const DEFAULT_TIMEOUT_SECONDS = 1800;

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: JsonObject;
}

export interface WatchRequest {
  readonly descriptor: ResourceDescriptor;
  readonly namespace: string | undefined;
  /** When the server ends the watch. */
  readonly timeoutSeconds: number;
  readonly allowBookmarks: boolean;
  /** What the watch sends before any later change. */
  readonly backlog: readonly WatchEvent[];
  /**
   * The backlog is one ERROR event (410 Expired, or 504 for a revision the store has not
   * reached): the watch ends after it.
   */
  readonly failed: boolean;
  /** The event a later change makes for this watch, if any. */
  readonly eventOf: (change: WatchCacheEvent) => WatchEvent | undefined;
}

/** `storage.ParseResourceVersion`: unset and `0` mean "from the current state". */
function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '' || value === '0') return undefined;
  if (!/^\d+$/.test(value)) {
    throw badRequest(`resourceVersion: Invalid value: ${JSON.stringify(value)}: invalid syntax`);
  }
  return Number(value);
}

function parseTimeout(value: string | null): number {
  if (value === null || value === '') return DEFAULT_TIMEOUT_SECONDS;
  if (!/^-?\d+$/.test(value)) {
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  const seconds = Number(value);
  return seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS;
}

/** `errors.NewResourceExpired`, sent as an ERROR event rather than as the response's status. */
function tooOldResourceVersion(requested: number, oldestServable: number): WatchEvent {
  const expired = new ApiError({
    code: 410,
    reason: 'Expired',
    message: `too old resource version: ${requested} (${oldestServable})`,
  });
  return { type: 'ERROR', object: expired.status };
}

/**
 * `errors.NewTimeoutError` as `storage.NewTooLargeResourceVersionError` makes it: a streamed list
 * not older than a revision the store has not reached. kube-apiserver waits 3 seconds for its
 * watch cache to catch up with etcd first; this store is the cache, never behind, so it answers
 * at once.
 */
function tooLargeResourceVersion(requested: number, current: number): WatchEvent {
  const tooLarge = new ApiError({
    code: 504,
    reason: 'Timeout',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    details: {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  });
  return { type: 'ERROR', object: tooLarge.status };
}

/**
 * A BOOKMARK: the kind and apiVersion of the watched objects and the revision the watch is at;
 * the one that ends a streamed list's initial events says so in an annotation
 * (storage.AnnotateInitialEventsEndBookmark).
 */
export function bookmark(
  descriptor: ResourceDescriptor,
  resourceVersion: number,
  initialEventsEnd = false,
): WatchEvent {
  const metadata: JsonObject = { resourceVersion: String(resourceVersion) };
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return {
    type: 'BOOKMARK',
    object: { kind: descriptor.kind, apiVersion: apiVersionOf(descriptor), metadata },
  };
}

/** The object with the revision of the change that made it leave the watch. */
function atRevision(object: JsonObject, resourceVersion: number): JsonObject {
  const metadata = { ...(object.metadata as JsonObject), resourceVersion: String(resourceVersion) };
  return { ...object, metadata };
}

/** Parses the query and works out the backlog; throws a 400 for bad selectors or versions. */
export function openWatch(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  query: URLSearchParams,
): WatchRequest {
  // Options are defaulted and validated before the storage reads selectors and revisions.
  const sendInitialEvents = sendInitialEventsOf(query, registry.watchList);
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  checkSupportedFields(descriptor, fields);
  const from = parseResourceVersion(query.get('resourceVersion'));
  const picks = (object: JsonObject | undefined) =>
    object !== undefined &&
    (namespace === undefined || !descriptor.namespaced || namespaceOf(object) === namespace) &&
    matchesLabels(labelsOf(object), labels) &&
    matchesFields(descriptor, object, fields);
  // cache_watcher.go, convertToWatchEvent.
  const eventOf = (change: WatchCacheEvent): WatchEvent | undefined => {
    const now = change.type !== 'DELETED' && picks(change.object);
    const before = picks(change.previous);
    if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: change.object };
    if (!before || change.previous === undefined) return undefined;
    return { type: 'DELETED', object: atRevision(change.previous, change.resourceVersion) };
  };
  const allowBookmarks = /^(true|1)$/.test(query.get('allowWatchBookmarks') ?? '');
  const common = {
    descriptor,
    namespace,
    timeoutSeconds: parseTimeout(query.get('timeoutSeconds')),
    allowBookmarks,
    eventOf,
    failed: false,
  };
  const current = Number(registry.store.resourceVersion);
  if (sendInitialEvents ?? from === undefined) {
    if (from !== undefined && from > current) {
      return { ...common, backlog: [tooLargeResourceVersion(from, current)], failed: true };
    }
    const state = selectObjects(registry, descriptor, namespace, query);
    const backlog = state.map((object): WatchEvent => ({ type: 'ADDED', object }));
    // cacher.go, setInitialEventsEndBookmarkIfRequested: only a streamed list asked for so.
    if (sendInitialEvents === true && allowBookmarks)
      backlog.push(bookmark(descriptor, current, true));
    return { ...common, backlog };
  }
  // Without the state first: the changes after the revision asked for, or after now.
  const changes = registry.watchCache.changesSince(descriptor.resource, from ?? current);
  if ('tooOld' in changes) {
    const backlog = [tooOldResourceVersion(from ?? current, changes.oldestServable)];
    return { ...common, backlog, failed: true };
  }
  const backlog = changes.map(eventOf).filter((event) => event !== undefined);
  return { ...common, backlog };
}
