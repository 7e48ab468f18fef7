/**
 * Decisions on the cluster's EventBridge bus (docs/design.md §1.2, docs/decisions.md): source
 * `nodesmith`, detail type `NodeClaim <kind>` (or `Limit Reached`), the decision as detail. PutEvents takes ten
 * entries a call and may refuse some of them; refused entries are retried a few times. Nothing
 * here fails a pass: the pass has already recorded its work, and a lost notification must not
 * undo or repeat it, so what cannot be published is logged instead.
 */
import {
  type EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import pLimit from 'p-limit';
import type { Decision, DecisionPublisher, LimitReached } from '../../ports/decisions.ts';

export const DECISION_SOURCE = 'nodesmith';
/** Bumped when a field of the detail changes meaning; new fields do not bump it. */
export const DECISION_DETAIL_VERSION = 1;

/**
 * Per-entry refusals the same entry will meet again (EventBridge API reference,
 * PutEventsResultEntry): retrying them only delays the pass. Anything else — throttling, an
 * internal failure, a code added later — is worth another try.
 */
const PERMANENT_REFUSALS: ReadonlySet<string> = new Set([
  'AccessDeniedException',
  'InvalidAccountIdException',
  'InvalidArgument',
  'MalformedDetail',
  'RedactionFailure',
  'NotAuthorizedForSourceException',
  'NotAuthorizedForDetailTypeException',
]);

const ENTRIES_PER_CALL = 10;
const CONCURRENT_CALLS = 4;
const ATTEMPTS = 3;

export interface DecisionLogger {
  warn(message: string, fields: Record<string, unknown>): void;
}

export interface EventBridgeDecisionPublisherOptions {
  readonly client: Pick<EventBridgeClient, 'send'>;
  readonly eventBusName: string;
  readonly clusterName: string;
  readonly logger: DecisionLogger;
  /** Waits between retries of refused entries; tests pass one that does not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function describe(entry: PutEventsRequestEntry): string {
  const detail = JSON.parse(entry.Detail ?? '{}');
  return `${entry.DetailType}: ${detail.nodeClaim ?? detail.limit}`;
}

export class EventBridgeDecisionPublisher implements DecisionPublisher {
  readonly #options: EventBridgeDecisionPublisherOptions;

  constructor(options: EventBridgeDecisionPublisherOptions) {
    this.#options = options;
  }

  async publish(decisions: readonly (Decision | LimitReached)[]): Promise<void> {
    const limit = pLimit(CONCURRENT_CALLS);
    const batches = chunks(
      decisions.map((d) => this.#entry(d)),
      ENTRIES_PER_CALL,
    );
    await Promise.all(batches.map((batch) => limit(() => this.#put(batch))));
  }

  #entry(decision: Decision | LimitReached): PutEventsRequestEntry {
    return {
      Source: DECISION_SOURCE,
      DetailType: decision.kind === 'LimitReached' ? 'Limit Reached' : `NodeClaim ${decision.kind}`,
      EventBusName: this.#options.eventBusName,
      Time: new Date(decision.time),
      Detail: JSON.stringify({
        version: DECISION_DETAIL_VERSION,
        cluster: this.#options.clusterName,
        ...decision,
      }),
    };
  }

  /** Sends the batch, then again only the entries EventBridge refused, a few times. */
  async #put(batch: readonly PutEventsRequestEntry[]): Promise<void> {
    const sleep = this.#options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    let pending = [...batch];
    const refused: string[] = [];
    for (let attempt = 1; attempt <= ATTEMPTS && pending.length > 0; attempt++) {
      if (attempt > 1) await sleep(100 * 2 ** attempt);
      try {
        const result = await this.#options.client.send(new PutEventsCommand({ Entries: pending }));
        const codes = (result.Entries ?? []).map((e) => e.ErrorCode);
        refused.push(
          ...pending.filter((_, i) => PERMANENT_REFUSALS.has(codes[i] ?? '')).map(describe),
        );
        pending = pending.filter(
          (_, i) => codes[i] !== undefined && !PERMANENT_REFUSALS.has(codes[i] ?? ''),
        );
      } catch (err) {
        this.#options.logger.warn('publishing decisions failed', {
          error: (err as Error).message,
          decisions: pending.map((e) => e.DetailType),
        });
        return;
      }
    }
    refused.push(...pending.map(describe));
    if (refused.length > 0) this.#options.logger.warn('EventBridge refused decisions', { refused });
  }
}
