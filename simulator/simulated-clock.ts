/**
 * Simulated time: it moves only when the simulation moves it, so minutes of cluster time pass
 * in seconds of wall time and the same seed gives the same run.
 */
import type { Clock } from '../functions/ports/clock.ts';

export class SimulatedClock implements Clock {
  #ms: number;

  constructor(start: Date) {
    this.#ms = start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  /** Moves time forward to `ms` (epoch milliseconds); never backwards. */
  advanceTo(ms: number): void {
    if (ms > this.#ms) this.#ms = ms;
  }

  advanceBy(ms: number): void {
    this.#ms += ms;
  }
}
