/**
 * An SQS event source mapping as Lambda runs it (AWS Lambda Developer Guide, "Using Lambda with
 * Amazon SQS"): it receives up to `BatchSize` messages, gathering for up to
 * `MaximumBatchingWindowInSeconds`, and invokes the function with them as one SQS event, with no
 * more invocations in flight than `ScalingConfig.MaximumConcurrency`. When the invocation
 * succeeds the messages are deleted, except, with `ReportBatchItemFailures`, those the response
 * names; when it fails, times out or is throttled, the whole batch stays, to come back after the
 * queue's visibility timeout (and go to its dead-letter queue after `maxReceiveCount`).
 */
import type { PolledQueue, ReceivedMessage } from '../aws/aws-service.ts';
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface EventSourceMappingDefinition {
  readonly logicalId: string;
  /** The logical id of the function it invokes. */
  readonly functionLogicalId: string;
  readonly eventSourceArn: string;
  readonly batchSize: number;
  readonly maximumBatchingWindowSeconds: number;
  /** Absent when the mapping sets none: as many as the function's concurrency allows. */
  readonly maximumConcurrency: number | undefined;
  readonly reportBatchItemFailures: boolean;
  readonly enabled: boolean;
}

/** What one invocation of the mapping did with its batch, by message id. */
export interface BatchOutcome {
  readonly deleted: readonly string[];
  /** Left on the queue: reported failed, or the whole batch of a failed invocation. */
  readonly left: readonly string[];
  /** Why the invocation failed, when it did. */
  readonly error?: unknown;
}

const DEFAULT_BATCH_SIZE = 10;

/** The SQS event source mappings of the template. */
export function sqsEventSourceMappings(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
): EventSourceMappingDefinition[] {
  return resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')
    .map(([logicalId, p]) => {
      const scaling = p.ScalingConfig as { MaximumConcurrency?: number } | undefined;
      const functionRef = p.FunctionName as { Ref?: string } | string;
      return {
        logicalId,
        functionLogicalId: typeof functionRef === 'string' ? functionRef : String(functionRef.Ref),
        eventSourceArn: resolve(p.EventSourceArn),
        batchSize: Number(p.BatchSize ?? DEFAULT_BATCH_SIZE),
        maximumBatchingWindowSeconds: Number(p.MaximumBatchingWindowInSeconds ?? 0),
        maximumConcurrency: scaling?.MaximumConcurrency,
        reportBatchItemFailures: ((p.FunctionResponseTypes as string[]) ?? []).includes(
          'ReportBatchItemFailures',
        ),
        enabled: p.Enabled !== false,
      };
    })
    .filter((mapping) => mapping.eventSourceArn.startsWith('arn:aws:sqs:'));
}

/** The SQS event Lambda hands the function for a batch. */
export function sqsEvent(queueArn: string, messages: readonly ReceivedMessage[]) {
  const awsRegion = queueArn.split(':')[3] ?? '';
  return {
    Records: messages.map((m) => ({
      messageId: m.messageId,
      receiptHandle: m.receiptHandle,
      body: m.body,
      attributes: { ...m.attributes },
      messageAttributes: {},
      md5OfBody: m.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion,
    })),
  };
}

/** The message ids a partial batch response names; undefined when the response is not one. */
function reportedFailures(response: unknown, batch: readonly ReceivedMessage[]) {
  if (response === null || response === undefined) return [];
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return [];
  if (!Array.isArray(failures)) return undefined;
  const ids = new Set(batch.map((m) => m.messageId));
  const named = failures.map((f: { itemIdentifier?: unknown }) => f?.itemIdentifier);
  // Lambda treats a response naming an id not in the batch (or none) as the whole batch failing.
  if (named.some((id) => typeof id !== 'string' || !ids.has(id))) return undefined;
  return named as string[];
}

export class SqsEventSourceMapping {
  readonly definition: EventSourceMappingDefinition;
  readonly #queue: PolledQueue;
  readonly #invoke: (event: unknown) => Promise<unknown>;
  readonly #now: () => number;
  #gathered: ReceivedMessage[] = [];
  #gatheringSince = 0;
  #inFlight = new Set<Promise<BatchOutcome>>();

  constructor(
    definition: EventSourceMappingDefinition,
    options: {
      readonly queue: PolledQueue;
      readonly invoke: (event: unknown) => Promise<unknown>;
      /** Epoch milliseconds on the simulated clock, for the batching window. */
      readonly now: () => number;
    },
  ) {
    this.definition = definition;
    this.#queue = options.queue;
    this.#invoke = options.invoke;
    this.#now = options.now;
  }

  /** Invocations started and not yet settled. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * One poll: gathers what the queue hands out and, once the batch is full or its window has
   * passed, starts an invocation with it; resolves when that invocation is settled. Undefined
   * when nothing was started (disabled, at the maximum concurrency, nothing to deliver yet).
   */
  poll(): Promise<BatchOutcome> | undefined {
    const { enabled, maximumConcurrency, batchSize } = this.definition;
    if (!enabled || this.#inFlight.size >= (maximumConcurrency ?? Number.POSITIVE_INFINITY)) {
      return undefined;
    }
    if (this.#gathered.length === 0) this.#gatheringSince = this.#now();
    this.#gathered.push(...this.#queue.receive(batchSize - this.#gathered.length));
    if (this.#gathered.length === 0 || !this.#batchReady()) return undefined;
    const batch = this.#gathered;
    this.#gathered = [];
    const delivery = this.#deliver(batch).finally(() => this.#inFlight.delete(delivery));
    this.#inFlight.add(delivery);
    return delivery;
  }

  /** Resolves when every invocation in flight is settled. */
  async settled(): Promise<void> {
    await Promise.all(this.#inFlight);
  }

  #batchReady(): boolean {
    const windowMs = this.definition.maximumBatchingWindowSeconds * 1000;
    const full = this.#gathered.length >= this.definition.batchSize;
    return full || this.#now() - this.#gatheringSince >= windowMs;
  }

  async #deliver(batch: readonly ReceivedMessage[]): Promise<BatchOutcome> {
    const ids = batch.map((m) => m.messageId);
    let response: unknown;
    try {
      response = await this.#invoke(sqsEvent(this.definition.eventSourceArn, batch));
    } catch (error) {
      return { deleted: [], left: ids, error };
    }
    const failed = this.definition.reportBatchItemFailures ? reportedFailures(response, batch) : [];
    if (failed === undefined) return { deleted: [], left: ids };
    const deleted = batch.filter((m) => !failed.includes(m.messageId));
    for (const message of deleted) this.#queue.delete(message.receiptHandle);
    return { deleted: deleted.map((m) => m.messageId), left: failed };
  }
}
