/** WakeWindowStore: the admission wake's one window, however many relay containers race in it. */
import { describe, expect, it } from 'vitest';
import { race, type StoreFactory, secondsAfter, T0 } from './state-fixtures.ts';

const WINDOW_MS = 1000;

export function wakeWindowStoreContract(makeStore: StoreFactory): void {
  describe('the wake window', () => {
    it('opens a window, gives its delayed wake once, covers the rest, and opens the next once it closes', async () => {
      // Prepare
      const { wakeWindow } = await makeStore();
      const endsAt = secondsAfter(T0, 1).toISOString();

      // Act
      const turns = [];
      for (const at of [0, 0.2, 0.5, 0.999, 1, 1.5]) {
        turns.push(await wakeWindow.takeTurn(secondsAfter(T0, at), WINDOW_MS));
      }

      // Assess
      expect(turns).toEqual([
        { outcome: 'woke', window: { endsAt, deferredTaken: false } },
        { outcome: 'deferred', window: { endsAt, deferredTaken: true } },
        { outcome: 'covered', window: { endsAt, deferredTaken: true } },
        { outcome: 'covered', window: { endsAt, deferredTaken: true } },
        {
          outcome: 'woke',
          window: { endsAt: secondsAfter(T0, 2).toISOString(), deferredTaken: false },
        },
        {
          outcome: 'deferred',
          window: { endsAt: secondsAfter(T0, 2).toISOString(), deferredTaken: true },
        },
      ]);
    });

    it('of 10 racing calls, lets one open the window and one take its delayed wake', async () => {
      // Prepare
      const { wakeWindow } = await makeStore();

      // Act
      const outcome = await race(10, () => wakeWindow.takeTurn(T0, WINDOW_MS));

      // Assess
      expect(outcome.rejected).toEqual([]);
      const outcomes = outcome.fulfilled.map((turn) => turn.outcome).sort();
      expect(outcomes).toEqual([...Array(8).fill('covered'), 'deferred', 'woke']);
      const ends = new Set(outcome.fulfilled.map((turn) => turn.window.endsAt));
      expect([...ends]).toEqual([secondsAfter(T0, 1).toISOString()]);
    });
  });
}
