/**
 * The audit log's way to the relay on EKS: the control plane writes audit events to the cluster's
 * CloudWatch Logs group, and its subscription filter carries them on. The Amazon EKS User Guide
 * ("Send control plane logs to CloudWatch Logs") says control plane logs "are delivered to
 * CloudWatch Logs within a few minutes" and that delivery is best effort; the simulation holds
 * each batch for one minute, the low end of that bound, so the audit path's wake trails the
 * write as it does on EKS, where the admission webhook's call does not. A self-managed
 * cluster's kube-apiserver posts each batch itself: held for no time at all.
 */
import type { Clock } from '../../functions/ports/clock.ts';
import type { JsonObject } from '../api-server/json.ts';

/** How long a batch of audit events takes to reach the subscription's destination. */
export const AUDIT_LOG_DELIVERY_MS = 60_000;

export class AuditLogDelivery {
  readonly #clock: Clock;
  readonly #delayMs: number;
  #held: { readonly dueAt: number; readonly eventList: JsonObject }[] = [];

  constructor(clock: Clock, delayMs = AUDIT_LOG_DELIVERY_MS) {
    this.#clock = clock;
    this.#delayMs = delayMs;
  }

  /** The control plane writes a batch to the log group. */
  write(eventList: JsonObject): void {
    this.#held.push({ dueAt: this.#clock.now().getTime() + this.#delayMs, eventList });
  }

  /** The batches delivered by now, oldest first. */
  delivered(): JsonObject[] {
    const now = this.#clock.now().getTime();
    const due = this.#held.filter((b) => b.dueAt <= now).map((b) => b.eventList);
    this.#held = this.#held.filter((b) => b.dueAt > now);
    return due;
  }

  /** Whether a batch is still on its way. */
  get inFlight(): boolean {
    return this.#held.length > 0;
  }
}
