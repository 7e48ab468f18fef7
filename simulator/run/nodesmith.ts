/**
 * Nodesmith as the simulated world reaches it: the same three doors whether its functions run
 * in this process (in-process-nodesmith.ts, for speed) or as deployed, each from its bundle in
 * its own process behind the template's queues, rules and routes (simulator/deployed).
 */
import type { Decision } from '../../functions/ports/decisions.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { QueuedWake } from '../simulated-work-queue.ts';

export interface Nodesmith {
  /** The apiserver's audit backend sends a batch of audit events; resolves with the status. */
  audit(eventList: JsonObject): Promise<number>;
  /** EC2 sends its spot interruption warnings (EventBridge events, as JSON) on their way. */
  spotWarnings(bodies: readonly string[]): Promise<void>;
  /** What is due now runs: the wakes due, redeliveries, retries and schedules. */
  runDue(wakes: readonly QueuedWake[]): Promise<void>;
  /** Every controller pass's report, in order; empty when the passes run out of reach. */
  readonly passes: readonly PassReport[];
  /** The decisions published on the cluster's event bus, in order. */
  decisions(): readonly Decision[];
  close(): Promise<void>;
}
