/**
 * One kind read whole by a streamed list (KEP-3157, "watch-list"): a watch with
 * `sendInitialEvents=true` and `resourceVersionMatch=NotOlderThan` from the revision the read must
 * reach. kube-apiserver sends, from its watch cache, every object the selector picks as ADDED,
 * then a BOOKMARK annotated `k8s.io/initial-events-end` at the revision that state is at, not
 * older than the one asked for (kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go, setInitialEventsEndBookmarkIfRequested,
 * sent as soon as the last object is): what a consistent list reads, in one response. Servers
 * without the WatchList feature gate (on by default since 1.34, off in 1.33 and before 1.32)
 * refuse it 422; the kind is then listed.
 *
 * An object sent at the resourceVersion it is kept at is the object kept, so only the others are
 * read into the domain. When no object is newer than the kept revision and none is missing,
 * nothing of the kind changed from the kept revision to the bookmark's: the kept objects stand,
 * at the revision asked for, which lies between. So a kind in which nothing changed is proven so
 * in the time its state takes to arrive, where a watch from the kept revision could only wait.
 */
import type { KubernetesApis } from './clients.ts';
import { KeptObjects, keyOf, revisionOf, type WatchedObject } from './kept-objects.ts';
import { domainOf, type ReflectedKind } from './reflected-kind.ts';
import { READ_ON, watchUntil } from './watch-until.ts';

const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * Long enough for the largest state a function can hold to arrive. A server that ignores
 * `sendInitialEvents` (before 1.27) sends no state and no bookmark, and ends the watch here:
 * such a stream is taken as a refusal, so the kind is listed from then on. One that ends after
 * some of the state is a stream cut off, and only that read is lost.
 */
const STREAM_TIMEOUT_SECONDS = 60;

/** What the server says when it will not stream: the gate is off, or watching is not allowed. */
const REFUSALS = new Set([403, 422]);

export interface StreamRequest<TDomain> {
  /** The revision the state must not be older than; not a number for a consistent read. */
  readonly target: number;
  /** What is kept of the kind, at a revision below the target, if anything. */
  readonly kept?: KeptObjects<TDomain>;
  /** Closes the stream; the read then comes to nothing. */
  readonly signal?: AbortSignal;
}

/** The kind's objects at the target or later; or why the server did not stream them. */
export type Streamed<TDomain> =
  | { readonly kept: KeptObjects<TDomain> }
  | { readonly refused: string };

interface Arrival {
  readonly key: string;
  readonly version: string | undefined;
  readonly object: WatchedObject;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** True when no object is newer than `since` and as many are there as were kept. */
function unchangedSince(arrived: readonly Arrival[], since: number, count: number): boolean {
  return arrived.length === count && arrived.every((a) => revisionOf(a.object) <= since);
}

function assemble<TObject, TDomain>(
  kind: ReflectedKind<TObject, TDomain>,
  arrived: readonly Arrival[],
  at: number,
  request: StreamRequest<TDomain>,
  base: { readonly revision: number; readonly size: number } | undefined,
): KeptObjects<TDomain> {
  const { kept } = request;
  if (
    kept !== undefined &&
    base !== undefined &&
    unchangedSince(arrived, base.revision, base.size)
  ) {
    kept.revision = request.target;
    return kept;
  }
  const fresh = new KeptObjects<TDomain>(at);
  for (const { key, version, object } of arrived) {
    fresh.set(key, kept?.at(key, version) ?? domainOf(kind, object), version);
  }
  return fresh;
}

/**
 * Streams the kind's state; undefined when the signal aborted it first. Rejects when the request
 * fails otherwise or the server sends anything but the state and its bookmark.
 */
export async function streamList<TObject, TDomain>(
  apis: KubernetesApis,
  kind: ReflectedKind<TObject, TDomain>,
  request: StreamRequest<TDomain>,
): Promise<Streamed<TDomain> | undefined> {
  // The kept revision and count as the stream begins: a catch-up may apply changes meanwhile.
  const { kept } = request;
  const base = kept === undefined ? undefined : { revision: kept.revision, size: kept.size };
  const query = {
    sendInitialEvents: true,
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: true,
    timeoutSeconds: STREAM_TIMEOUT_SECONDS,
    ...(Number.isFinite(request.target) ? { resourceVersion: String(request.target) } : {}),
    ...(kind.fieldSelector === undefined ? {} : { fieldSelector: kind.fieldSelector }),
  };
  const arrived: Arrival[] = [];
  const handle = (type: string, event: unknown) => {
    const object = event as WatchedObject;
    if (type === 'ADDED') {
      arrived.push({ key: keyOf(object), version: object.metadata?.resourceVersion, object });
      return READ_ON;
    }
    if (type !== 'BOOKMARK') {
      const code = type === 'ERROR' ? ` (${object.code})` : '';
      throw new Error(`streaming ${kind.resource}: a ${type} event before the state ended${code}`);
    }
    const ends = object.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
    return ends ? { more: false as const, outcome: revisionOf(object) } : READ_ON;
  };
  const signal = request.signal;
  const watch = { path: kind.path, query, ...(signal === undefined ? {} : { signal }) };
  const outcome = await watchUntil(apis.watch, watch, handle, 'ended' as const).catch(
    (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && REFUSALS.has(status)) return { refused: `answered ${status}` };
      throw error;
    },
  );
  if (signal?.aborted) return undefined;
  if (typeof outcome === 'object') return outcome;
  if (outcome === 'ended' && arrived.length > 0) {
    // Cut off part-way (a restart, a dropped connection): this read fails, the next streams.
    throw new Error(`streaming ${kind.resource}: the stream ended after ${arrived.length} objects`);
  }
  if (outcome === 'ended') return { refused: 'the server ended the stream without the state' };
  if (!Number.isFinite(outcome)) return { refused: 'the state ended at no revision' };
  return { kept: assemble(kind, arrived, outcome, request, base) };
}
