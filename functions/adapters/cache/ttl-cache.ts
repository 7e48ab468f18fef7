/**
 * The adapters' one cache: entries expire a fixed time after they are stored, or at the time
 * their loader names (a token, an endpoint), read against the injected clock. Karpenter keeps
 * its discovery results this way (aws: pkg/cache/cache.go); a warm Lambda container keeps them
 * between invocations. Callers that ask for a key while it is loading share that load, so a pass
 * that builds several clients at once describes the cluster once. A failed load stores nothing:
 * the next call tries again.
 */

/** The injected clock. */
export type Now = () => Date;

/** A loaded value and the moment it must be loaded again. */
export interface Expiring<V> {
  readonly value: V;
  readonly replaceAt: Date;
}

interface Entry<V> {
  readonly value: V;
  readonly expiresAtMs: number;
}

export class TtlCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loading = new Map<string, Promise<V>>();
  readonly #now: Now;
  readonly #ttlMs: number;

  /** `ttlMs` applies to values stored without an expiry of their own. */
  constructor(now: Now, ttlMs = Number.POSITIVE_INFINITY) {
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  /** The value stored under `key`, unless it expired. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > this.#now().getTime()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, replaceAt?: Date): V {
    const expiresAtMs = replaceAt?.getTime() ?? this.#now().getTime() + this.#ttlMs;
    this.#entries.set(key, { value, expiresAtMs });
    return value;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** The fresh value under `key`, or what `load` resolves to, stored for the cache's TTL. */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    return this.#shared(key, async () => this.set(key, await load()));
  }

  /** The same for a loader that says when its value must be replaced. */
  getOrLoadExpiring(key: string, load: () => Promise<Expiring<V>>): Promise<V> {
    return this.#shared(key, async () => {
      const { value, replaceAt } = await load();
      return this.set(key, value, replaceAt);
    });
  }

  #shared(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const running = this.#loading.get(key);
    if (running !== undefined) return running;
    const loading = load().finally(() => this.#loading.delete(key));
    this.#loading.set(key, loading);
    return loading;
  }
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
