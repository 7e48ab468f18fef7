/**
 * The interruption function's middy chain: each message of the batch is one EventBridge event,
 * handled on its own (Powertools batch, partial responses), so one failure redelivers only its
 * message. A message that cannot be read is logged with its body and dropped, as Karpenter
 * deletes it; a message that failed for a transient reason (DynamoDB, the API server, SQS) is
 * reported as a batch item failure, retried by the queue and, after its retries, kept intact in
 * the dead-letter queue.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { emitSamples } from '../../adapters/metrics/karpenter-metrics.ts';
import { METRICS_NAMESPACE } from '../../contract/metric-names.ts';
import type { InterruptionMessage } from '../../domain/interruption/interruption-message.ts';
import type { InterruptionOutcome } from '../../use-cases/interruption/handle-interruption.ts';
import {
  handledMetrics,
  ignoredMetrics,
  unparsableMetrics,
} from '../../use-cases/interruption/interruption-metrics.ts';
import { parseInterruptionMessage } from './event.ts';

export interface InterruptionHandlerDependencies {
  readonly handle: (message: InterruptionMessage) => Promise<InterruptionOutcome>;
  readonly logger?: Logger;
  readonly metrics?: Metrics;
  /** When a message is handled, for the time it spent on the queue; the wall clock when absent. */
  readonly now?: () => Date;
}

export type InterruptionHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export function makeInterruptionHandler(
  deps: InterruptionHandlerDependencies,
): InterruptionHandler {
  const logger = deps.logger ?? new Logger({ serviceName: 'nodesmith-interruption' });
  const metrics =
    deps.metrics ??
    // Its warnings (a pass with nothing to count) go through the logger, at the logger's level.
    new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'nodesmith-interruption', logger });
  const now = deps.now ?? (() => new Date());

  const processRecord = async (record: SQSRecord): Promise<void> => {
    const parsed = parseInterruptionMessage(record.body);
    if (parsed.kind === 'unparsable') {
      logger.warn('dropping a message that is not an interruption event', {
        messageId: record.messageId,
        reason: parsed.reason,
        body: record.body,
      });
      metrics.addMetric('UnparsableMessages', MetricUnit.Count, 1);
      emitSamples(metrics, unparsableMetrics());
      return;
    }
    if (parsed.kind === 'ignored') {
      logger.debug('ignoring event', { messageId: record.messageId, reason: parsed.reason });
      emitSamples(metrics, ignoredMetrics());
      return;
    }
    const outcome = await deps.handle(parsed.message);
    if (outcome.duplicate) metrics.addMetric('DuplicateInterruptions', MetricUnit.Count, 1);
    emitSamples(metrics, handledMetrics(parsed.message, outcome, now()));
    logger.info(outcome.duplicate ? 'interruption already handled' : 'interruption handled', {
      event: outcome.event,
      kind: outcome.kind,
      instances: outcome.instances,
    });
  };

  const handle = async (event: SQSEvent): Promise<SQSBatchResponse> =>
    processPartialResponse(
      event,
      async (record: SQSRecord) => {
        try {
          await processRecord(record);
        } catch (err) {
          logger.error('interruption failed; the queue will deliver it again', {
            messageId: record.messageId,
            error: (err as Error).message,
          });
          throw err;
        }
      },
      new BatchProcessor(EventType.SQS),
      { throwOnFullBatchFailure: false },
    );

  return middy(handle).use(injectLambdaContext(logger)).use(logMetrics(metrics));
}
