/**
 * The work queue of the simulated deployment: a Waker whose wakes come due after their delay in
 * simulated time, plus the second SQS and Lambda take to hand a message to the controller
 * function. `duplicate` delivers every wake twice, as at-least-once delivery may; `copies` says,
 * wake by wake, how many copies arrive and how late, so wakes can also come out of order.
 */
import type { Clock } from '../functions/ports/clock.ts';
import type { Wake, Waker, WakeSource } from '../functions/ports/wake.ts';

export interface QueuedWake {
  readonly wake: Wake;
  readonly dueAt: number;
  readonly id: number;
}

export interface WorkQueueOptions {
  readonly duplicate?: boolean;
  /** The second SQS and Lambda take to hand a message over. @default 1000 */
  readonly deliveryMs?: number;
  /**
   * For each wake sent, the extra delay of each copy delivered, in milliseconds: `[0]` is one
   * copy on time, `[0, 4000]` a duplicate four seconds late, `[3000]` one copy overtaken by
   * wakes sent after it. Overrides `duplicate`.
   */
  readonly copies?: (wake: Wake) => readonly number[];
}

export class SimulatedWorkQueue implements Waker {
  readonly #clock: Clock;
  readonly #copies: (wake: Wake) => readonly number[];
  readonly #deliveryMs: number;
  #queued: QueuedWake[] = [];
  #sent = 0;
  readonly #sources = new Map<WakeSource, number>();

  constructor(clock: Clock, options: WorkQueueOptions = {}) {
    this.#clock = clock;
    const copies = options.duplicate ? [0, 0] : [0];
    this.#copies = options.copies ?? (() => copies);
    this.#deliveryMs = options.deliveryMs ?? 1000;
  }

  async wake(wake: Wake, delaySeconds = 0): Promise<void> {
    const delayMs = Math.min(Math.max(delaySeconds, 0), 900) * 1000;
    const dueAt = this.#clock.now().getTime() + delayMs + this.#deliveryMs;
    this.#sources.set(wake.source, (this.#sources.get(wake.source) ?? 0) + 1);
    for (const lateMs of this.#copies(wake)) {
      this.#sent += 1;
      this.#queued.push({ wake, dueAt: dueAt + lateMs, id: this.#sent });
    }
  }

  /** Wakes sent by each source, copies and redeliveries not counted. */
  sent(source: WakeSource): number {
    return this.#sources.get(source) ?? 0;
  }

  /**
   * Puts wakes whose invocation failed back on the queue, visible again after the visibility
   * timeout, as SQS redelivers a batch the function did not finish.
   */
  redeliver(wakes: readonly QueuedWake[], visibilityTimeoutSeconds: number): void {
    const dueAt = this.#clock.now().getTime() + visibilityTimeoutSeconds * 1000;
    this.#queued.push(...wakes.map((q) => ({ ...q, dueAt })));
  }

  /** Removes and returns the wakes due by now, oldest first. */
  due(): QueuedWake[] {
    const now = this.#clock.now().getTime();
    const due = this.#queued.filter((q) => q.dueAt <= now);
    this.#queued = this.#queued.filter((q) => q.dueAt > now);
    return due.sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  /** When the next queued wake comes due, if any. */
  nextDueAt(): number | undefined {
    return this.#queued.reduce<number | undefined>(
      (next, q) => (next === undefined || q.dueAt < next ? q.dueAt : next),
      undefined,
    );
  }
}
