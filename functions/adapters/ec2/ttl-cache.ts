/**
 * A cache whose entries expire a fixed time after they were stored, read against the injected
 * clock. Karpenter keeps its discovery results this way (aws: pkg/cache/cache.go); a warm Lambda
 * container keeps them between invocations.
 */
import type { Now } from './clients.ts';

interface Entry<V> {
  readonly value: V;
  readonly expiresAtMs: number;
}

export class TtlCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #ttlMs: number;
  readonly #now: Now;

  constructor(ttlMs: number, now: Now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** The value stored under `key`, unless it expired. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > this.#now().getTime()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V): V {
    this.#entries.set(key, { value, expiresAtMs: this.#now().getTime() + this.#ttlMs });
    return value;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** The fresh value under `key`, or what `load` resolves to, stored. A failed load stores nothing. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    return this.set(key, await load());
  }
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
