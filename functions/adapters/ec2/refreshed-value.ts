/**
 * Data refreshed on an interval that outlives a failed refresh: the last good value is served
 * until a refresh succeeds (Karpenter's pricing and instance-type providers behave so). Reading
 * never rejects; failures go to `onError`, and the next attempt waits `retryMs`.
 */
import type { Now } from './clients.ts';

export interface RefreshedValueOptions<T> {
  readonly load: () => Promise<T>;
  readonly refreshMs: number;
  readonly retryMs: number;
  readonly now: Now;
  readonly onError?: (err: unknown) => void;
}

export class RefreshedValue<T> {
  readonly #options: RefreshedValueOptions<T>;
  #value: T | undefined;
  #nextAttemptMs = Number.NEGATIVE_INFINITY;

  constructor(options: RefreshedValueOptions<T>) {
    this.#options = options;
  }

  /** The last good value, refreshed first when due; undefined until a load has succeeded. */
  async current(): Promise<T | undefined> {
    const nowMs = this.#options.now().getTime();
    if (nowMs < this.#nextAttemptMs) return this.#value;
    try {
      this.#value = await this.#options.load();
      this.#nextAttemptMs = nowMs + this.#options.refreshMs;
    } catch (err) {
      this.#nextAttemptMs = nowMs + this.#options.retryMs;
      this.#options.onError?.(err);
    }
    return this.#value;
  }
}
