/**
 * One value kept until the time its loader says it must be replaced, read against the injected
 * clock; a warm Lambda container keeps it between invocations. Callers that ask while a load is
 * under way share it, so a pass that builds several clients at once describes the cluster once.
 * A failed load stores nothing: the next call tries again.
 */
import type { Now } from './clients.ts';

export interface Expiring<T> {
  readonly value: T;
  /** From this moment on the value is loaded again. */
  readonly replaceAt: Date;
}

export class CachedValue<T> {
  readonly #now: Now;
  readonly #load: () => Promise<Expiring<T>>;
  #entry: Expiring<T> | undefined;
  #loading: Promise<T> | undefined;

  constructor(load: () => Promise<Expiring<T>>, now: Now) {
    this.#load = load;
    this.#now = now;
  }

  /** The value, loaded first when there is none or it is due for replacement. */
  get(): Promise<T> {
    const entry = this.#entry;
    if (entry !== undefined && this.#now().getTime() < entry.replaceAt.getTime()) {
      return Promise.resolve(entry.value);
    }
    this.#loading ??= this.#reload().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #reload(): Promise<T> {
    const entry = await this.#load();
    this.#entry = entry;
    return entry.value;
  }
}
