/**
 * The controller's own wakes, coalesced as a work queue coalesces a key that is already queued
 * (controller-runtime requeues an object once, however often it is asked). Every pass that finds
 * claims in flight asks for the next pass in ten seconds; without this, each admission wake or
 * tick during a launch starts one more chain of such wakes, and a 300-pod burst ran 55–62
 * passes where one chain needs about a dozen. A delayed wake is left out when one this waker
 * queued is still to come and arrives no later; a wake at once is always sent. The memory is
 * the container's, as a warm snapshot is: a second container starts at most one more chain.
 */
import type { Clock } from '../../ports/clock.ts';
import type { Wake, Waker } from '../../ports/wake.ts';

export class CoalescingWaker implements Waker {
  readonly #waker: Waker;
  readonly #clock: Clock;
  /** When each wake this waker queued is due, epoch milliseconds; those past are dropped. */
  #due: number[] = [];

  constructor(waker: Waker, clock: Clock) {
    this.#waker = waker;
    this.#clock = clock;
  }

  async wake(wake: Wake, delaySeconds = 0): Promise<void> {
    const now = this.#clock.now().getTime();
    const dueAt = now + delaySeconds * 1000;
    this.#due = this.#due.filter((due) => due > now);
    if (this.#due.some((due) => due <= dueAt)) return;
    await this.#waker.wake(wake, delaySeconds);
    this.#due.push(dueAt);
  }
}
