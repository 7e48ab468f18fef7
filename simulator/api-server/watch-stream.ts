/**
 * A watch served over its HTTP response, as kube-apiserver's WatchServer streams one: a 200 with
 * one JSON event per line, the backlog first, then each change as it is stored, until the
 * watch's timeout or the client going away. The backlog (a streamed list's whole state, or the
 * changes kept since a revision) is written a batch at a time, waiting while the client is
 * behind as a server blocked on its connection waits, and stops when the client goes away;
 * changes stored meanwhile follow it in order. With `allowWatchBookmarks`, a BOOKMARK carrying
 * the current resourceVersion about once a minute and 2 seconds before the timeout, none when
 * the watch is shorter than that (cache_watcher.go, `nextBookmarkTime`). A failed watch ends
 * after its ERROR event.
 */

import type { ServerResponse } from 'node:http';
import { bookmark, type WatchEvent, type WatchRequest } from './registry/watch.ts';
import type { WatchCache } from './watch-cache.ts';

/** `bookmarkFrequency`: a watch that allows bookmarks gets one about this often. */
const BOOKMARK_EVERY_MS = 60_000;
/** The last bookmark comes this long before the watch's timeout. */
const BOOKMARK_BEFORE_TIMEOUT_MS = 2_000;
/** Backlog events per write: the encoder's buffer, flushed when full. */
const BATCH = 200;

/** When the next bookmark is due, in ms from now; undefined when none is. */
function nextBookmarkIn(nowMs: number, deadlineMs: number): number | undefined {
  const due = Math.min(nowMs + BOOKMARK_EVERY_MS, deadlineMs - BOOKMARK_BEFORE_TIMEOUT_MS);
  return due < nowMs ? undefined : due - nowMs;
}

function lines(events: readonly WatchEvent[]): string {
  let out = '';
  for (const event of events) out += `${JSON.stringify(event)}\n`;
  return out;
}

/** Resolves once the client has taken what was written, or has gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Writes the events a batch at a time, letting the event loop turn between batches; stops early
 * when `open` turns false.
 */
async function writeInBatches(
  response: ServerResponse,
  events: readonly WatchEvent[],
  open: () => boolean,
): Promise<void> {
  for (let start = 0; start < events.length && open(); start += BATCH) {
    const flushed = response.write(lines(events.slice(start, start + BATCH)));
    if (!flushed) await drained(response);
    else await new Promise((resolve) => setImmediate(resolve));
  }
}

export function streamWatch(
  cache: WatchCache,
  watch: WatchRequest,
  response: ServerResponse,
): void {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  // As WatchServer flushes its headers at once: the client's watch is open before any event.
  response.flushHeaders();
  let open = true;
  /** Changes and bookmarks that came while the backlog was being written; undefined after. */
  let held: WatchEvent[] | undefined = [];
  const send = (event: WatchEvent) => {
    if (held !== undefined) held.push(event);
    else if (open) response.write(`${JSON.stringify(event)}\n`);
  };
  const unsubscribe = watch.failed
    ? () => undefined
    : cache.subscribe(watch.descriptor.resource, (change) => {
        const event = watch.eventOf(change);
        if (event !== undefined) send(event);
      });
  const deadlineMs = Date.now() + watch.timeoutSeconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    open = false;
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
      send(bookmark(watch.descriptor, cache.resourceVersion));
      // From the next millisecond, so the bookmark before the timeout is sent once.
      scheduleBookmark(Date.now() + 1);
    }, delay);
  };
  if (watch.allowBookmarks && !watch.failed) scheduleBookmark(Date.now());
  response.on('close', end);
  writeInBatches(response, watch.backlog, () => open).then(() => {
    const meanwhile = held ?? [];
    held = undefined;
    if (watch.failed) return end();
    if (open && meanwhile.length > 0) response.write(lines(meanwhile));
  }, end);
}
