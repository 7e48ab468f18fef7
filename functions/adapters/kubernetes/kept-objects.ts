/**
 * One kind's objects as a warm function keeps them (reflector.ts): the domain objects by the key
 * lists order them by, each with the resourceVersion it was read at, and the revision the whole
 * is at. An object read again at the same resourceVersion is the same object, so it need not be
 * read into the domain again.
 */

export interface WatchedObject {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly code?: number;
}

/** The etcd key order lists come in: namespace, then name. */
export function keyOf(object: WatchedObject): string {
  const { name = '', namespace } = object.metadata ?? {};
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

export function revisionOf(object: WatchedObject): number {
  return Number(object.metadata?.resourceVersion ?? Number.NaN);
}

export class KeptObjects<TDomain> {
  readonly #objects = new Map<string, TDomain>();
  readonly #versions = new Map<string, string>();
  /** The keys in list order; undefined once an object came or went. */
  #order: string[] | undefined;
  revision: number;

  constructor(revision: number) {
    this.revision = revision;
  }

  get size(): number {
    return this.#objects.size;
  }

  /** The object kept under the key if it was read at this resourceVersion. */
  at(key: string, resourceVersion: string | undefined): TDomain | undefined {
    if (resourceVersion === undefined || this.#versions.get(key) !== resourceVersion)
      return undefined;
    return this.#objects.get(key);
  }

  set(key: string, object: TDomain, resourceVersion: string | undefined): void {
    if (!this.#objects.has(key)) this.#order = undefined;
    this.#objects.set(key, object);
    this.#versions.set(key, resourceVersion ?? '');
  }

  delete(key: string): void {
    this.#versions.delete(key);
    if (this.#objects.delete(key)) this.#order = undefined;
  }

  inOrder(): TDomain[] {
    this.#order ??= [...this.#objects.keys()].sort();
    const out: TDomain[] = [];
    for (const key of this.#order) {
      const object = this.#objects.get(key);
      if (object !== undefined) out.push(object);
    }
    return out;
  }
}
