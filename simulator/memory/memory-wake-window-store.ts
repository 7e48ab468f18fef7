/** The admission wake's window held in memory, by the domain's rule as the DynamoDB adapter keeps it. */
import {
  takeWakeTurn,
  type WakeTurn,
  type WakeWindow,
} from '../../functions/domain/state/wake-window.ts';
import type { WakeWindowStore } from '../../functions/ports/state-store.ts';

export class MemoryWakeWindowStore implements WakeWindowStore {
  #window: WakeWindow | undefined;

  async takeTurn(now: Date, windowMs: number): Promise<WakeTurn> {
    const turn = takeWakeTurn(this.#window, now, windowMs);
    this.#window = turn.window;
    // A copy, as every record handed out is: the caller shares nothing with the store.
    return { outcome: turn.outcome, window: { ...turn.window } };
  }
}
