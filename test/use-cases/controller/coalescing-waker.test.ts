/**
 * The controller's own wakes, coalesced: one chain of in-flight wakes however many passes ask,
 * never a wake later than asked, and nothing remembered of a wake the queue refused.
 */
import { describe, expect, it } from 'vitest';
import type { Wake } from '../../../functions/ports/wake.ts';
import { CoalescingWaker } from '../../../functions/use-cases/controller/coalescing-waker.ts';
import { aClock, SECOND } from '../../support/clock.ts';
import { Wakes } from './pass-world.ts';

const inFlight: Wake = { source: 'controller', reason: '9 node claims in flight' };

function aCoalescingWaker() {
  const clock = aClock();
  const queue = new Wakes();
  return { clock, queue, waker: new CoalescingWaker(queue, clock) };
}

describe('the controller’s coalesced wakes', () => {
  it('leaves out a pass’s wake while one it queued is still to come, and sends the next when that one is due', async () => {
    const { clock, queue, waker } = aCoalescingWaker();
    await waker.wake(inFlight, 10); // the launching pass
    clock.advance(3 * SECOND);
    await waker.wake(inFlight, 10); // a pass an admission wake started
    clock.advance(4 * SECOND);
    await waker.wake(inFlight, 10); // a tick's pass
    clock.advance(3 * SECOND);
    await waker.wake(inFlight, 10); // the pass the first wake started
    expect(queue.queued.map((q) => q.delaySeconds)).toEqual([10, 10]);
  });

  it('sends a wake at once, and a wake sooner than the one to come', async () => {
    const { clock, queue, waker } = aCoalescingWaker();
    await waker.wake(inFlight, 10);
    clock.advance(SECOND);
    await waker.wake({ source: 'controller', reason: '12 pods left at the deadline' }, 0);
    await waker.wake(inFlight, 2);
    await waker.wake(inFlight, 5);
    expect(queue.queued.map((q) => q.delaySeconds)).toEqual([10, 0, 2]);
  });

  it('remembers nothing of a wake the queue refused', async () => {
    const queue = new Wakes();
    let refusals = 1;
    const waker = new CoalescingWaker(
      {
        wake: async (wake, delaySeconds) => {
          if (refusals-- > 0) throw new Error('throttled');
          await queue.wake(wake, delaySeconds);
        },
      },
      aClock(),
    );
    await expect(waker.wake(inFlight, 10)).rejects.toThrow('throttled');
    await waker.wake(inFlight, 10);
    expect(queue.queued).toEqual([{ wake: inFlight, delaySeconds: 10 }]);
  });
});
