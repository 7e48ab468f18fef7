/**
 * Asking for a controller pass (docs/design.md §1.2 "level-triggered, edge-accelerated"). A wake
 * carries no work: the pass reconciles the whole cluster from a fresh snapshot, so a lost,
 * duplicated or reordered wake delays a decision by at most one tick and never makes it wrong.
 */

/**
 * Who asked: the audit relay (audit events, or admission calls), the interruption function, the
 * schedule, the pools API, or the controller itself.
 */
export type WakeSource = 'admission' | 'audit' | 'interruption' | 'schedule' | 'api' | 'controller';

export interface Wake {
  readonly source: WakeSource;
  /** Why, for the logs: `3 pods unschedulable`, `node ip-10-0-1-1 deleted`, `claims in flight`. */
  readonly reason: string;
}

export interface Waker {
  /**
   * Queues one wake for the controller, delivered after `delaySeconds` (0 when absent; SQS
   * allows up to 900). Rejects with ThrottledError when the queue refuses for rate.
   *
   * @example
   * await waker.wake({ source: 'audit', reason: '2 pods unschedulable' });
   */
  wake(wake: Wake, delaySeconds?: number): Promise<void>;
}
