/**
 * The admission wake's window as a relay container takes its turns in it (domain
 * wake-window.ts). The window is the cluster's, kept in the state table, so a burst that Lambda
 * spreads over as many containers as the route lets through at once still makes two wakes, not
 * two per container. What a container has seen spares it the table: once it knows that the open
 * window's delayed wake is taken, its calls until the window closes are covered without a write.
 *
 * When the table cannot be reached the container keeps a window of its own for a while, as if it
 * were the only one: a wake carries no work (docs/design.md §1.2), so waking more often only
 * costs passes, where not waking would leave pods to the tick. A wake that fails is sent again,
 * at once, by the container's next call that the window would have covered.
 */
import { isLive } from '../../domain/state/expiry.ts';
import {
  secondsToEnd,
  takeWakeTurn,
  type WakeOutcome,
  type WakeTurn,
  type WakeWindow,
} from '../../domain/state/wake-window.ts';
import type { WakeWindowStore } from '../../ports/state-store.ts';
import type { Wake, Waker } from '../../ports/wake.ts';

export type { WakeOutcome } from '../../domain/state/wake-window.ts';

export interface SharedWakeWindowOptions {
  readonly store: WakeWindowStore;
  readonly waker: Waker;
  readonly windowMs: number;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** Told when the table could not be reached and the container's own window stood in. */
  readonly onStoreError: (err: unknown) => void;
}

export class SharedWakeWindow {
  readonly #options: SharedWakeWindowOptions;
  /** The cluster's window as this container last saw it. */
  #seen: WakeWindow | undefined;
  /** The container's own window, opened when the table could not be reached. */
  #own: WakeWindow | undefined;
  #wakeFailed = false;

  constructor(options: SharedWakeWindowOptions) {
    this.#options = options;
  }

  async saw(wake: Wake): Promise<WakeOutcome> {
    const now = new Date(this.#options.now());
    const turn = await this.#turn(now);
    if (turn.outcome === 'covered' && !this.#wakeFailed) return 'covered';
    const outcome = turn.outcome === 'covered' ? 'woke' : turn.outcome;
    const delaySeconds = outcome === 'deferred' ? secondsToEnd(turn.window, now) : 0;
    try {
      await this.#options.waker.wake(wake, delaySeconds);
    } catch (err) {
      this.#wakeFailed = true;
      throw err;
    }
    this.#wakeFailed = false;
    return outcome;
  }

  async #turn(now: Date): Promise<WakeTurn> {
    if (this.#own !== undefined && isLive(this.#own.endsAt, now)) return this.#ownTurn(now);
    if (this.#seen?.deferredTaken && isLive(this.#seen.endsAt, now)) {
      return { outcome: 'covered', window: this.#seen };
    }
    try {
      const turn = await this.#options.store.takeTurn(now, this.#options.windowMs);
      this.#seen = turn.window;
      return turn;
    } catch (err) {
      this.#options.onStoreError(err);
      return this.#ownTurn(now);
    }
  }

  #ownTurn(now: Date): WakeTurn {
    const turn = takeWakeTurn(this.#own, now, this.#options.windowMs);
    this.#own = turn.window;
    return turn;
  }
}
