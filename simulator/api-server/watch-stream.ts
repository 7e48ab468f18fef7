/**
 * A watch served over its HTTP response, as kube-apiserver's WatchServer streams one: a 200 with
 * one JSON event per line, the backlog first, then each change as it is stored, until the
 * watch's timeout or the client going away. With `allowWatchBookmarks`, a BOOKMARK carrying the
 * current resourceVersion about once a minute and 2 seconds before the timeout, none when the
 * watch is shorter than that (cache_watcher.go, `nextBookmarkTime`). An expired watch ends after
 * its ERROR event.
 */

import type { ServerResponse } from 'node:http';
import type { WatchEvent, WatchRequest } from './registry/watch.ts';
import { apiVersionOf } from './resource-descriptor.ts';
import type { WatchCache } from './watch-cache.ts';

/** `bookmarkFrequency`: a watch that allows bookmarks gets one about this often. */
const BOOKMARK_EVERY_MS = 60_000;
/** The last bookmark comes this long before the watch's timeout. */
const BOOKMARK_BEFORE_TIMEOUT_MS = 2_000;

function bookmark(watch: WatchRequest, resourceVersion: number): WatchEvent {
  const { descriptor } = watch;
  const metadata = { resourceVersion: String(resourceVersion) };
  return {
    type: 'BOOKMARK',
    object: { kind: descriptor.kind, apiVersion: apiVersionOf(descriptor), metadata },
  };
}

/** When the next bookmark is due, in ms from now; undefined when none is. */
function nextBookmarkIn(nowMs: number, deadlineMs: number): number | undefined {
  const due = Math.min(nowMs + BOOKMARK_EVERY_MS, deadlineMs - BOOKMARK_BEFORE_TIMEOUT_MS);
  return due < nowMs ? undefined : due - nowMs;
}

export function streamWatch(
  cache: WatchCache,
  watch: WatchRequest,
  response: ServerResponse,
): void {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  // As WatchServer flushes its headers at once: the client's watch is open before any event.
  response.flushHeaders();
  const send = (event: WatchEvent) => response.write(`${JSON.stringify(event)}\n`);
  for (const event of watch.backlog) send(event);
  if (watch.expired) {
    response.end();
    return;
  }
  const unsubscribe = cache.subscribe(watch.descriptor.resource, (change) => {
    const event = watch.eventOf(change);
    if (event !== undefined) send(event);
  });
  const deadlineMs = Date.now() + watch.timeoutSeconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    unsubscribe();
    clearTimeout(timer);
    clearTimeout(timeout);
    if (!response.writableEnded) response.end();
  };
  const timeout = setTimeout(end, watch.timeoutSeconds * 1000);
  const scheduleBookmark = (fromMs: number) => {
    const delay = nextBookmarkIn(fromMs, deadlineMs);
    if (delay === undefined) return;
    timer = setTimeout(() => {
      send(bookmark(watch, cache.resourceVersion));
      // From the next millisecond, so the bookmark before the timeout is sent once.
      scheduleBookmark(Date.now() + 1);
    }, delay);
  };
  if (watch.allowBookmarks) scheduleBookmark(Date.now());
  response.on('close', end);
}
