/** The delayed wake lands at the window's end, in the whole seconds SQS delays by. */
import { describe, expect, it } from 'vitest';
import { secondsToEnd } from '../../../functions/domain/state/wake-window.ts';

const NOW = new Date('2030-01-01T00:00:00.000Z');

describe('secondsToEnd', () => {
  it.each([
    ['a whole second', 1000, 1],
    ['part of a second', 250, 1],
    ['more than a second', 1500, 2],
    ['no time at all', 0, 1],
  ])(
    'delays a wake %s before the end by at least that, and never by less than 1 s',
    (_, leftMs, seconds) => {
      // Prepare
      const window = {
        endsAt: new Date(NOW.getTime() + leftMs).toISOString(),
        deferredTaken: false,
      };

      // Act
      const delay = secondsToEnd(window, NOW);

      // Assess
      expect(delay).toBe(seconds);
    },
  );
});
