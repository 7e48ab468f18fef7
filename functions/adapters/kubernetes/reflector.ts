/**
 * One kind's objects kept between passes, as client-go's Reflector keeps an informer's store:
 * read whole once, then brought up to date from the revision read by a watch, read whole again
 * when the server answers 410 Gone (kubernetes/kubernetes,
 * staging/src/k8s.io/client-go/tools/cache/reflector.go). A whole read is a streamed list where
 * the server offers one (streamed-list.ts), as client-go's reflector reads with its
 * WatchListClient feature, and a list page by page otherwise. A Lambda function cannot keep a
 * watch open between invocations, so each `sync` opens a short one from the last revision seen
 * and reads the changes the server kept since, until one reaches the revision asked for or the
 * server ends the watch: either way every change up to then has arrived, in order, so the
 * objects are the kind's state at one revision, as a list would read it. A watch cannot tell
 * that no change of its kind is coming, so a whole read races it, and whichever is done first
 * stands: a streamed list at once (only the objects that changed are read into the domain, and
 * a kind in which nothing changed keeps what it has), a list once the watch has taken as long as
 * the last list did, and never when that list took longer than the watch may stay open.
 * Anything unexpected — an error event, a failed request, an object that does not map — throws
 * the kept objects away and reads the kind whole, which fails as the cold list would if the
 * cluster is at fault. A kind small enough to come in one page is read whole each time: one
 * request costs less than a catch-up that may wait.
 */
import type { KubernetesApis } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { KeptObjects, keyOf, revisionOf, type WatchedObject } from './kept-objects.ts';
import { readList } from './pages.ts';
import { domainOf, type ReflectedKind } from './reflected-kind.ts';
import { streamList } from './streamed-list.ts';
import { READ_ON, watchUntil } from './watch-until.ts';

export type { ReflectedKind } from './reflected-kind.ts';

/**
 * How a catch-up ended: a change reached or passed the target, the server ended the watch at its
 * timeout or before it, or it answered 410 Gone.
 */
type CatchUp = 'reached' | 'timed out' | 'ended' | 'expired';

/** Timers may fire a few milliseconds either side of the second the server was asked for. */
const TIMER_SLACK_MS = 20;

export interface SyncOptions {
  /** The revision the objects must reach: the cluster's, read as the pass began. */
  readonly target: number;
  /** How long the server keeps a catch-up watch open, in whole seconds (the API's unit). */
  readonly watchSeconds: number;
  /** Objects per list request; a kind that fits in one page is read whole rather than watched. */
  readonly pageSize: number;
  /**
   * How long a catch-up may take before a whole read races it; when not given, at once for a
   * streamed list and as long as the last list took for a list.
   */
  readonly raceAfterMs?: number;
}

type Settled<T> = { readonly value: T } | { readonly error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** What `promise` settled to if it did within `ms`; undefined otherwise. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

export class Reflector<TObject, TDomain> {
  readonly #kind: ReflectedKind<TObject, TDomain>;
  /** What is kept; undefined until read, and after a failure. */
  #kept: KeptObjects<TDomain> | undefined;
  /** How long the last list took, in ms: what racing a catch-up with a list costs. */
  #listMs = 0;
  /** Whether the server streams lists; false once it refused to. */
  #streams = true;

  constructor(kind: ReflectedKind<TObject, TDomain>) {
    this.#kind = kind;
  }

  /** The revision the kept objects are at, if any are kept. */
  get revision(): number | undefined {
    return this.#kept?.revision;
  }

  /**
   * The kind's objects in list order, at `target` or later: caught up by a watch when some are
   * kept, read whole otherwise.
   */
  async sync(apis: KubernetesApis, options: SyncOptions): Promise<TDomain[]> {
    const kept = this.#kept;
    // A cluster whose revision went back (restored from a backup) is not the one kept: read it.
    if (kept === undefined || kept.revision > options.target) return this.#reread(apis, options);
    if (kept.revision === options.target) return kept.inOrder();
    // What fits one page is one request to read, cheaper than a catch-up that may wait.
    if (kept.size <= options.pageSize) return this.#reread(apis, options);
    return this.#catchUpOrRead(apis, kept, options);
  }

  /** Forgets what was kept: the next sync reads the kind whole. */
  forget(): void {
    this.#kept = undefined;
  }

  async #reread(apis: KubernetesApis, options: SyncOptions): Promise<TDomain[]> {
    this.forget();
    const read = await this.#readWhole(apis, options);
    this.#kept = read;
    return read.inOrder();
  }

  /**
   * The kind whole, at the target or later: streamed where the server streams lists (reusing
   * what `kept` holds), listed otherwise; undefined when `signal` aborted the stream.
   */
  async #readWhole(
    apis: KubernetesApis,
    options: SyncOptions,
    kept?: KeptObjects<TDomain>,
    signal?: AbortSignal,
  ): Promise<KeptObjects<TDomain>> {
    if (this.#streams) {
      const target = options.target;
      const streamed = await streamList(apis, this.#kind, {
        target,
        ...(kept === undefined ? {} : { kept }),
        ...(signal === undefined ? {} : { signal }),
      }).catch(() => undefined);
      if (streamed !== undefined && 'kept' in streamed) return streamed.kept;
      if (streamed !== undefined) this.#streams = false;
      if (signal?.aborted) throw new Error(`reading ${this.#kind.resource}: aborted`);
    }
    return this.#list(apis, options.pageSize);
  }

  /** The kind listed afresh, page by page; the list's duration is noted for the next catch-up. */
  async #list(apis: KubernetesApis, pageSize: number): Promise<KeptObjects<TDomain>> {
    const started = Date.now();
    const { resource, fieldSelector } = this.#kind;
    const call: ApiCall = { doing: `listing ${resource}`, verb: 'list', resource };
    const fetchPage = (query: { limit: number; _continue?: string }) =>
      this.#kind.list(apis, fieldSelector === undefined ? query : { ...query, fieldSelector });
    const listed = await request(call, () => readList(fetchPage, pageSize));
    const fresh = new KeptObjects<TDomain>(Number(listed.resourceVersion));
    for (const object of listed.items) {
      const watched = object as WatchedObject;
      fresh.set(keyOf(watched), this.#kind.map(object), watched.metadata?.resourceVersion);
    }
    this.#listMs = Date.now() - started;
    return fresh;
  }

  /**
   * When a whole read should race a catch-up, in ms from its start; undefined for never. A
   * streamed list always races, from the start: it is cut off the moment the watch ends first,
   * so it costs at most what arrived meanwhile. A list is paid in full, so it waits as long as
   * the last one took, and is never started when that was no quicker than the watch's second.
   */
  #raceAfter(options: SyncOptions): number | undefined {
    if (options.raceAfterMs !== undefined) return options.raceAfterMs;
    if (this.#streams) return 0;
    return this.#listMs >= options.watchSeconds * 1000 ? undefined : this.#listMs;
  }

  /**
   * The kept objects caught up by watch, raced by a whole read of the kind (#raceAfter); both
   * are the kind's state at the target or later, and whichever is done first stands.
   */
  async #catchUpOrRead(
    apis: KubernetesApis,
    kept: KeptObjects<TDomain>,
    options: SyncOptions,
  ): Promise<TDomain[]> {
    const stopWatch = new AbortController();
    const watching = settle(this.#catchUp(apis, kept, options, stopWatch.signal));
    const after = this.#raceAfter(options);
    if (after === undefined) return this.#caughtUp(apis, kept, await watching, options);
    const first = await within(watching, after);
    if (first !== undefined) return this.#caughtUp(apis, kept, first, options);
    const stopRead = new AbortController();
    const reading = settle(this.#readWhole(apis, options, kept, stopRead.signal));
    const winner = await Promise.race([
      watching.then((watched) => ({ watched })),
      reading.then((read) => ({ read })),
    ]);
    if ('read' in winner && 'value' in winner.read) {
      stopWatch.abort();
      this.#kept = winner.read.value;
      return winner.read.value.inOrder();
    }
    // The watch came first, or the read failed: what the watch came to, the read standing by.
    return this.#caughtUp(apis, kept, await watching, options, { reading, stop: stopRead });
  }

  /**
   * What a catch-up came to: the kept objects at the target when a change reached it or the
   * server ended the watch at its timeout; as far as it got when ended sooner; read whole again
   * (by the racing read, if one runs) on a 410 or anything unexpected.
   */
  async #caughtUp(
    apis: KubernetesApis,
    kept: KeptObjects<TDomain>,
    watched: Settled<CatchUp>,
    options: SyncOptions,
    racing?: {
      readonly reading: Promise<Settled<KeptObjects<TDomain>>>;
      readonly stop: AbortController;
    },
  ): Promise<TDomain[]> {
    if ('value' in watched && watched.value !== 'expired') {
      racing?.stop.abort();
      // A change past the target came, so every one up to it had; or the server ended the
      // watch at its timeout, having sent every change up to then, after the target was read
      // (what a bookmark would say): the kind is at the target. A watch cut short keeps what
      // it read, a consistent but older state.
      if (watched.value !== 'ended') kept.revision = options.target;
      this.#kept = kept;
      return kept.inOrder();
    }
    // Any doubt about what was kept: it is thrown away and read again.
    this.forget();
    const read = racing === undefined ? undefined : await racing.reading;
    if (read !== undefined && 'value' in read) {
      this.#kept = read.value;
      return read.value.inOrder();
    }
    return this.#reread(apis, options);
  }

  /**
   * Applies the changes after the kept revision as the watch sends them, up to the target:
   * `reached` once one is at it or past it (that one left unapplied), `timed out` when the
   * server ended the watch at its timeout, `ended` when sooner; `expired` when the server
   * answered 410 Gone. Rejects on any other error event or failure. Once `signal` aborts, the
   * watch is closed and nothing more is applied.
   */
  async #catchUp(
    apis: KubernetesApis,
    kept: KeptObjects<TDomain>,
    options: SyncOptions,
    signal: AbortSignal,
  ): Promise<CatchUp> {
    const { path, fieldSelector } = this.#kind;
    const query = {
      resourceVersion: String(kept.revision),
      timeoutSeconds: options.watchSeconds,
      allowWatchBookmarks: true,
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
    const expired = { more: false, outcome: 'expired' } as const;
    const reached = { more: false, outcome: 'reached' } as const;
    const opened = Date.now();
    const outcome = await watchUntil<CatchUp, CatchUp>(
      apis.watch,
      { path, query, signal },
      (type, event) => {
        const object = event as WatchedObject;
        if (type === 'ERROR') {
          if (object.code === 410) return expired;
          throw new Error(`watching ${this.#kind.resource}: an error event (${object.code})`);
        }
        // A change past the target is left for the next pass: the kind stays at the target,
        // where the other kind is caught up to as well.
        if (revisionOf(object) > options.target) return reached;
        this.#apply(kept, type, object);
        return revisionOf(object) === options.target ? reached : READ_ON;
      },
      'ended',
    );
    const lasted = Date.now() - opened >= options.watchSeconds * 1000 - TIMER_SLACK_MS;
    return outcome === 'ended' && lasted ? 'timed out' : outcome;
  }

  #apply(kept: KeptObjects<TDomain>, type: string, object: WatchedObject): void {
    const revision = revisionOf(object);
    if (!Number.isFinite(revision)) throw new Error(`a ${type} event without a resourceVersion`);
    if (type === 'ADDED' || type === 'MODIFIED') {
      kept.set(keyOf(object), domainOf(this.#kind, object), object.metadata?.resourceVersion);
    } else if (type === 'DELETED') {
      kept.delete(keyOf(object));
    } else if (type !== 'BOOKMARK') {
      throw new Error(`an unknown watch event ${type}`);
    }
    kept.revision = revision;
  }
}
