/**
 * Admission calls come one object at a time, hundreds a second in a burst; the relay turns them
 * into at most two wakes a window per container, as the audit webhook turns a batch into one: the
 * first call wakes at once, and the first after it within the window sends one wake delayed to
 * the window's end, so a pod created after the woken pass took its snapshot still gets a pass
 * without waiting for the tick. The rest are already covered (docs/design.md §1.2: a wake
 * carries no work).
 */
import type { Wake, Waker } from '../../ports/wake.ts';

export type WakeOutcome = 'woke' | 'deferred' | 'covered';

export class WakeWindow {
  readonly #waker: Waker;
  readonly #windowMs: number;
  readonly #now: () => number;
  #endsAt = Number.NEGATIVE_INFINITY;
  #deferredSent = false;

  constructor(waker: Waker, windowMs: number, now: () => number) {
    this.#waker = waker;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  async saw(wake: Wake): Promise<WakeOutcome> {
    const now = this.#now();
    if (now >= this.#endsAt) {
      const [endsAt, deferredSent] = [this.#endsAt, this.#deferredSent];
      this.#endsAt = now + this.#windowMs;
      this.#deferredSent = false;
      await this.#waker.wake(wake).catch((err: unknown) => {
        [this.#endsAt, this.#deferredSent] = [endsAt, deferredSent];
        throw err;
      });
      return 'woke';
    }
    if (this.#deferredSent) return 'covered';
    this.#deferredSent = true;
    const delaySeconds = Math.max(1, Math.ceil((this.#endsAt - now) / 1000));
    await this.#waker.wake(wake, delaySeconds).catch((err: unknown) => {
      this.#deferredSent = false;
      throw err;
    });
    return 'deferred';
  }
}
