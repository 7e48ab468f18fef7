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
 * catch-up waits when none of its changes reaches the revision asked for.
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
}

export class Reflector<TObject, TDomain> {
  readonly #kind: ReflectedKind<TObject, TDomain>;
  readonly #objects = new Map<string, TDomain>();
  /** The keys in list order; undefined once an object came or went. */
  #order: string[] | undefined;
  /** The revision the objects are at; undefined until listed, and after a failure. */
  #revision: number | undefined;

  constructor(kind: ReflectedKind<TObject, TDomain>) {
    this.#kind = kind;
  }

  /** The revision the kept objects are at, if any are kept. */
  get revision(): number | undefined {
    return this.#revision;
  }

  /**
   * The kind's objects in list order, at `target` or later: caught up by a watch when some are
   * kept, listed otherwise.
   */
  async sync(apis: KubernetesApis, options: SyncOptions): Promise<TDomain[]> {
    // A cluster whose revision went back (restored from a backup) is not the one kept: list it.
    if (this.#revision === undefined || this.#revision > options.target) {
      return this.#relist(apis, options.pageSize);
    }
    if (this.#revision === options.target) return this.#inOrder();
    // What fits one page is one request to list, cheaper than the second a catch-up may wait.
    if (this.#objects.size <= options.pageSize) return this.#relist(apis, options.pageSize);
    try {
      const outcome = await this.#catchUp(apis, this.#revision, options);
      // A change past the target came, so every one up to it had; or the server ended the
      // watch at its timeout, having sent every change up to then, after the target was read
      // (what a bookmark would say): the kind is at the target. A watch cut short keeps what
      // it read, a consistent but older state.
      if (outcome === 'reached' || outcome === 'timed out') this.#revision = options.target;
      if (outcome !== 'expired') return this.#inOrder();
    } catch {
      // Any doubt about what was kept: it is thrown away and listed again below.
    }
    return this.#relist(apis, options.pageSize);
  }

  /** Forgets what was kept: the next sync lists. */
  forget(): void {
    this.#revision = undefined;
    this.#objects.clear();
    this.#order = undefined;
  }

  async #relist(apis: KubernetesApis, pageSize: number): Promise<TDomain[]> {
    this.forget();
    const { resource, fieldSelector } = this.#kind;
    const call: ApiCall = { doing: `listing ${resource}`, verb: 'list', resource };
    const fetchPage = (query: PageQuery) =>
      this.#kind.list(apis, fieldSelector === undefined ? query : { ...query, fieldSelector });
    const listed = await request(call, () => readList(fetchPage, pageSize));
    for (const object of listed.items) {
      this.#objects.set(keyOf(object as WatchedObject), this.#kind.map(object));
    }
    this.#revision = Number(listed.resourceVersion);
    return this.#inOrder();
  }

  /**
   * Applies the changes after `from` as the watch sends them, up to the target: `reached` once
   * one is at it or past it (that one left unapplied), `timed out` when the server ended the
   * watch at its timeout, `ended` when sooner; `expired` when the server answered 410 Gone.
   * Rejects on any other error event or failure.
   */
  async #catchUp(apis: KubernetesApis, from: number, options: SyncOptions): Promise<CatchUp> {
    const { path, fieldSelector } = this.#kind;
    const query = {
      resourceVersion: String(from),
      timeoutSeconds: options.watchSeconds,
      allowWatchBookmarks: true,
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
    const expired = { more: false, outcome: 'expired' } as const;
    const reached = { more: false, outcome: 'reached' } as const;
    const opened = Date.now();
    const outcome = await watchUntil<CatchUp, CatchUp>(
      apis.watch,
      { path, query },
      (type, event) => {
        const object = event as WatchedObject;
        if (type === 'ERROR') {
          if (object.code === 410) return expired;
          throw new Error(`watching ${this.#kind.resource}: an error event (${object.code})`);
        }
        // A change past the target is left for the next pass: the kind stays at the target,
        // where the other kind is caught up to as well.
        if (revisionOf(object) > options.target) return reached;
        this.#apply(type, object);
        return revisionOf(object) === options.target ? reached : READ_ON;
      },
      'ended',
    );
    const lasted = Date.now() - opened >= options.watchSeconds * 1000 - TIMER_SLACK_MS;
    return outcome === 'ended' && lasted ? 'timed out' : outcome;
  }

  #apply(type: string, object: WatchedObject): void {
    const revision = revisionOf(object);
    if (!Number.isFinite(revision)) throw new Error(`a ${type} event without a resourceVersion`);
    if (type === 'ADDED' || type === 'MODIFIED') {
      const typed = ObjectSerializer.deserialize(object, this.#kind.model, '') as TObject;
      const key = keyOf(object);
      if (!this.#objects.has(key)) this.#order = undefined;
      this.#objects.set(key, this.#kind.map(typed));
    } else if (type === 'DELETED') {
      if (this.#objects.delete(keyOf(object))) this.#order = undefined;
    } else if (type !== 'BOOKMARK') {
      throw new Error(`an unknown watch event ${type}`);
    }
    this.#revision = revision;
  }

  #inOrder(): TDomain[] {
    this.#order ??= [...this.#objects.keys()].sort();
    const out: TDomain[] = [];
    for (const key of this.#order) {
      const object = this.#objects.get(key);
      if (object !== undefined) out.push(object);
    }
    return out;
  }
}
