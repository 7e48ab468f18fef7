/**
 * watch: what a `GET <collection>?watch=true` sends, as kube-apiserver's cacher sends it
 * (kubernetes/kubernetes, staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go and
 * cache_watcher.go). From `resourceVersion` unset or `0`, every object the selectors pick as
 * ADDED, then each change; from a resourceVersion, each change after it, from the watch cache,
 * or one ERROR event with the 410 Expired Status when the cache no longer holds them all. A
 * change is judged against the selectors before and after it: an object that stops matching is
 * DELETED (its last content, at the change's revision), one that starts matching is ADDED.
 */

import { checkSupportedFields, matchesFields, parseFieldSelector } from '../field-selector.ts';
import type { JsonObject } from '../json.ts';
import { matchesLabels, parseLabelSelector } from '../label-selector.ts';
import { labelsOf, namespaceOf } from '../object-meta.ts';
import type { ResourceDescriptor } from '../resource-descriptor.ts';
import { ApiError, badRequest } from '../status-errors.ts';
import type { WatchCacheEvent } from '../watch-cache.ts';
import type { Registry } from './context.ts';
import { selectObjects } from './read.ts';

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
  /** The backlog is the 410 Expired error: the watch ends after it. */
  readonly expired: boolean;
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
  const common = {
    descriptor,
    namespace,
    timeoutSeconds: parseTimeout(query.get('timeoutSeconds')),
    allowBookmarks: /^(true|1)$/.test(query.get('allowWatchBookmarks') ?? ''),
    eventOf,
  };
  if (from === undefined) {
    const current = selectObjects(registry, descriptor, namespace, query);
    const backlog = current.map((object): WatchEvent => ({ type: 'ADDED', object }));
    return { ...common, backlog, expired: false };
  }
  const changes = registry.watchCache.changesSince(descriptor.resource, from);
  if ('tooOld' in changes) {
    const backlog = [tooOldResourceVersion(from, changes.oldestServable)];
    return { ...common, backlog, expired: true };
  }
  const backlog = changes.map(eventOf).filter((event) => event !== undefined);
  return { ...common, backlog, expired: false };
}
