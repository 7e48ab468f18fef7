/**
 * One kind's objects kept between passes, as client-go's Reflector keeps an informer's store:
 * listed once, then brought up to date from the list's resourceVersion by a watch, relisted when
 * the server answers 410 Gone (kubernetes/kubernetes,
 * staging/src/k8s.io/client-go/tools/cache/reflector.go). A Lambda function cannot keep a watch
 * open between invocations, so each `sync` opens a short one from the last revision seen and
 * reads the changes the server kept since, until one reaches the revision asked for or the
 * server ends the watch: either way every change up to then has arrived, in order, so the
 * objects are the kind's state at one revision, as a list would read it. Anything unexpected —
 * an error event, a failed request, an object that does not map — throws the kept objects away
 * and lists again, which fails as the cold list would if the cluster is at fault. A kind small
 * enough to come in one page is listed each time: one request costs less than the second a
 * catch-up waits when none of its changes reaches the revision asked for; and a catch-up that
 * takes longer than the kind's last list did is raced by a fresh list.
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import type { KubernetesApis } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { type Page, type PageQuery, readList } from './pages.ts';
import { READ_ON, watchUntil } from './watch-until.ts';

/** What a reflector lists and watches, and how it reads each object. */
export interface ReflectedKind<TObject, TDomain> {
  /** The API's resource name, for messages and RBAC: `nodes`, `pods`. */
  readonly resource: string;
  /** The collection's path, across all namespaces: `/api/v1/pods`. */
  readonly path: string;
  /** client-node's model of one object, as its list methods deserialize items: `V1Pod`. */
  readonly model: string;
  readonly fieldSelector?: string;
  readonly list: (
    apis: KubernetesApis,
    query: PageQuery & { fieldSelector?: string },
  ) => Promise<Page<TObject>>;
  readonly map: (object: TObject) => TDomain;
}

interface WatchedObject {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
  };
  readonly code?: number;
}

/** The etcd key order lists come in: namespace, then name. */
function keyOf(object: WatchedObject): string {
  const { name = '', namespace } = object.metadata ?? {};
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/**
 * How a catch-up ended: a change reached or passed the target, the server ended the watch at its
 * timeout or before it, or it answered 410 Gone.
 */
type CatchUp = 'reached' | 'timed out' | 'ended' | 'expired';

/** Timers may fire a few milliseconds either side of the second the server was asked for. */
const TIMER_SLACK_MS = 20;

function revisionOf(object: WatchedObject): number {
  return Number(object.metadata?.resourceVersion ?? Number.NaN);
}

export interface SyncOptions {
  /** The revision the objects must reach: the cluster's, read as the pass began. */
  readonly target: number;
  /** How long the server keeps a catch-up watch open, in whole seconds (the API's unit). */
  readonly watchSeconds: number;
  /** Objects per list request; a kind that fits in one page is listed rather than watched. */
  readonly pageSize: number;
  /**
   * How long a catch-up may take before a list races it; as long as the kind's last list took
   * when not given.
   */
  readonly raceListAfterMs?: number;
}

/** One kind's objects at one revision. */
class Kept<TDomain> {
  readonly objects = new Map<string, TDomain>();
  /** The keys in list order; undefined once an object came or went. */
  order: string[] | undefined;
  revision: number;

  constructor(revision: number) {
    this.revision = revision;
  }

  inOrder(): TDomain[] {
    this.order ??= [...this.objects.keys()].sort();
    const out: TDomain[] = [];
    for (const key of this.order) {
      const object = this.objects.get(key);
      if (object !== undefined) out.push(object);
    }
    return out;
  }
}

type Settled<T> = { readonly value: T } | { readonly error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

export class Reflector<TObject, TDomain> {
  readonly #kind: ReflectedKind<TObject, TDomain>;
  /** What is kept; undefined until listed, and after a failure. */
  #kept: Kept<TDomain> | undefined;
  /** How long the last list took, in ms: a catch-up slower than that is raced by a list. */
  #listMs = 0;

  constructor(kind: ReflectedKind<TObject, TDomain>) {
    this.#kind = kind;
  }

  /** The revision the kept objects are at, if any are kept. */
  get revision(): number | undefined {
    return this.#kept?.revision;
  }

  /**
   * The kind's objects in list order, at `target` or later: caught up by a watch when some are
   * kept, listed otherwise.
   */
  async sync(apis: KubernetesApis, options: SyncOptions): Promise<TDomain[]> {
    const kept = this.#kept;
    // A cluster whose revision went back (restored from a backup) is not the one kept: list it.
    if (kept === undefined || kept.revision > options.target) return this.#relist(apis, options);
    if (kept.revision === options.target) return kept.inOrder();
    // What fits one page is one request to list, cheaper than the second a catch-up may wait.
    if (kept.objects.size <= options.pageSize) return this.#relist(apis, options);
    return this.#catchUpOrList(apis, kept, options);
  }

  /** Forgets what was kept: the next sync lists. */
  forget(): void {
    this.#kept = undefined;
  }

  async #relist(apis: KubernetesApis, options: SyncOptions): Promise<TDomain[]> {
    this.forget();
    const listed = await this.#list(apis, options.pageSize);
    this.#kept = listed;
    return listed.inOrder();
  }

  /** The kind listed afresh, page by page; the list's duration is noted for the next catch-up. */
  async #list(apis: KubernetesApis, pageSize: number): Promise<Kept<TDomain>> {
    const started = Date.now();
    const { resource, fieldSelector } = this.#kind;
    const call: ApiCall = { doing: `listing ${resource}`, verb: 'list', resource };
    const fetchPage = (query: PageQuery) =>
      this.#kind.list(apis, fieldSelector === undefined ? query : { ...query, fieldSelector });
    const listed = await request(call, () => readList(fetchPage, pageSize));
    const fresh = new Kept<TDomain>(Number(listed.resourceVersion));
    for (const object of listed.items) {
      fresh.objects.set(keyOf(object as WatchedObject), this.#kind.map(object));
    }
    this.#listMs = Date.now() - started;
    return fresh;
  }

  /**
   * The kept objects caught up by watch; when that takes longer than the kind's last list did
   * (no change of the kind reaches the target, so the watch runs out its second), a list races
   * it and whichever is done first stands. Both are the kind's state at the target or later.
   */
  async #catchUpOrList(
    apis: KubernetesApis,
    kept: Kept<TDomain>,
    options: SyncOptions,
  ): Promise<TDomain[]> {
    const abort = new AbortController();
    const watching = settle(this.#catchUp(apis, kept, options, abort.signal));
    const after = options.raceListAfterMs ?? this.#listMs;
    // A list no quicker than the watch's whole second is never worth racing it.
    if (after >= options.watchSeconds * 1000) {
      return this.#caughtUp(apis, kept, await watching, options);
    }
    let timer: NodeJS.Timeout | undefined;
    const listTime = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), after);
    });
    const first = await Promise.race([watching, listTime]);
    clearTimeout(timer);
    if (first !== undefined) return this.#caughtUp(apis, kept, first, options);
    const listing = settle(this.#list(apis, options.pageSize));
    const winner = await Promise.race([
      watching.then((watched) => ({ watched })),
      listing.then((listed) => ({ listed })),
    ]);
    if ('listed' in winner && 'value' in winner.listed) {
      abort.abort();
      this.#kept = winner.listed.value;
      return winner.listed.value.inOrder();
    }
    // The watch came first, or the list failed: what the watch came to, the list standing by.
    return this.#caughtUp(apis, kept, await watching, options, listing);
  }

  /**
   * What a catch-up came to: the kept objects at the target when a change reached it or the
   * server ended the watch at its timeout; as far as it got when ended sooner; listed afresh
   * (by the racing list, if one runs) on a 410 or anything unexpected.
   */
  async #caughtUp(
    apis: KubernetesApis,
    kept: Kept<TDomain>,
    watched: Settled<CatchUp>,
    options: SyncOptions,
    listing?: Promise<Settled<Kept<TDomain>>>,
  ): Promise<TDomain[]> {
    if ('value' in watched && watched.value !== 'expired') {
      // A change past the target came, so every one up to it had; or the server ended the
      // watch at its timeout, having sent every change up to then, after the target was read
      // (what a bookmark would say): the kind is at the target. A watch cut short keeps what
      // it read, a consistent but older state.
      if (watched.value !== 'ended') kept.revision = options.target;
      this.#kept = kept;
      return kept.inOrder();
    }
    // Any doubt about what was kept: it is thrown away and listed again.
    this.forget();
    const listed = listing === undefined ? undefined : await listing;
    if (listed !== undefined && 'value' in listed) {
      this.#kept = listed.value;
      return listed.value.inOrder();
    }
    return this.#relist(apis, options);
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
    kept: Kept<TDomain>,
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

  #apply(kept: Kept<TDomain>, type: string, object: WatchedObject): void {
    const revision = revisionOf(object);
    if (!Number.isFinite(revision)) throw new Error(`a ${type} event without a resourceVersion`);
    if (type === 'ADDED' || type === 'MODIFIED') {
      const typed = ObjectSerializer.deserialize(object, this.#kind.model, '') as TObject;
      const key = keyOf(object);
      if (!kept.objects.has(key)) kept.order = undefined;
      kept.objects.set(key, this.#kind.map(typed));
    } else if (type === 'DELETED') {
      if (kept.objects.delete(keyOf(object))) kept.order = undefined;
    } else if (type !== 'BOOKMARK') {
      throw new Error(`an unknown watch event ${type}`);
    }
    kept.revision = revision;
  }
}
