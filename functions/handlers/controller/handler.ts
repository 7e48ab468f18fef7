/**
 * The controller function's middy chain: a batch of wakes from the work queue runs one pass
 * (wakes carry no work, so ten of them ask for no more than one). A message that is not a wake
 * is reported as a batch item failure (Powertools batch) and, after the queue's retries, lands
 * in the dead-letter queue intact; the wakes beside it are not redelivered. A pass that fails
 * fails the whole batch, so the wakes come back and the next pass tries again.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { emitSamples } from '../../adapters/metrics/karpenter-metrics.ts';
import { METRICS_NAMESPACE, NODEPOOL_DIMENSION } from '../../contract/metric-names.ts';
import { passMetrics } from '../../use-cases/controller/pass-metrics.ts';
import type { PassReport } from '../../use-cases/controller/pass-report.ts';
import { overlayConflictWarning } from '../../use-cases/instance-types-by-pool.ts';
import { parseWake, type WakeMessage } from './event.ts';

export interface ControllerHandlerDependencies {
  /**
   * Runs one pass; `holder` names this invocation in the lease, `remainingMs` is what is left of
   * it (the lease must outlive the invocation).
   */
  readonly pass: (holder: string, remainingMs: number) => Promise<PassReport>;
  /** Powertools defaults (level and namespace from the environment) when absent. */
  readonly logger?: Logger;
  readonly metrics?: Metrics;
}

export type ControllerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

function recordMetrics(metrics: Metrics, report: PassReport): void {
  if (!report.ran) {
    metrics.addMetric('PassesSkipped', MetricUnit.Count, 1);
    return;
  }
  metrics.addMetric('ProvisionablePods', MetricUnit.Count, report.provisionablePods);
  metrics.addMetric('LaunchFailures', MetricUnit.Count, report.failures.length);
  metrics.addMetric('PodsReplanned', MetricUnit.Count, report.replannedPods);
  metrics.addMetric('UnschedulablePods', MetricUnit.Count, report.unschedulable.length);
  metrics.addMetric('NodeClaimsInFlight', MetricUnit.Count, report.inFlight);
  const duration = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  metrics.addMetric('PassDuration', MetricUnit.Milliseconds, duration);
  // Claims whose action failed and were backed off: one broken object, told without stopping.
  metrics.addMetric('NodeClaimActionFailures', MetricUnit.Count, report.claimFailures.length);
  const refused = report.unschedulable.filter((u) => u.reasons.some((r) => r.code === 'Limits'));
  metrics.addMetric('PodsRefusedByLimits', MetricUnit.Count, refused.length);
  metrics.addMetric('LimitsReached', MetricUnit.Count, report.limitsReached.length);
  for (const pool of report.pools) {
    // One line per pool, so its dimension does not spread to the pass's own metrics.
    const nodes = metrics.singleMetric();
    nodes.addDimension(NODEPOOL_DIMENSION, pool.nodePool);
    nodes.addMetric('Nodes', MetricUnit.Count, pool.nodes);
    const cost = metrics.singleMetric();
    cost.addDimension(NODEPOOL_DIMENSION, pool.nodePool);
    cost.addMetric('CostPerHour', MetricUnit.NoUnit, pool.costPerHour);
  }
  // Launches, registrations, disruptions and terminations under Karpenter's names and labels.
  emitSamples(metrics, passMetrics(report));
}

export function makeControllerHandler(deps: ControllerHandlerDependencies): ControllerHandler {
  const logger = deps.logger ?? new Logger({ serviceName: 'nodesmith-controller' });
  const metrics =
    deps.metrics ??
    // Its warnings (a pass with nothing to count) go through the logger, at the logger's level.
    new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'nodesmith-controller', logger });
  const handle = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const wakes: WakeMessage[] = [];
    const processor = new BatchProcessor(EventType.SQS);
    const response = await processPartialResponse(
      event,
      (record: SQSRecord) => {
        try {
          wakes.push(parseWake(record.body));
        } catch (err) {
          logger.error('message is not a wake; left for the dead-letter queue', {
            messageId: record.messageId,
            body: record.body,
            error: (err as Error).message,
          });
          throw err;
        }
      },
      processor,
      { throwOnFullBatchFailure: false },
    );
    if (wakes.length === 0) return response;
    logger.info('pass starting', { wakes: wakes.map((w) => `${w.source}: ${w.reason}`) });
    const report = await deps.pass(context.awsRequestId, context.getRemainingTimeInMillis());
    recordMetrics(metrics, report);
    logger.info(report.ran ? 'pass finished' : 'another pass holds the lease', {
      provisionablePods: report.provisionablePods,
      launched: report.launches.map((l) => l.claim.name),
      failures: report.failures.map((f) => `${f.claim}: ${f.reason}`),
      replannedPods: report.replannedPods,
      unschedulable: report.unschedulable.length,
      lifecycle: report.lifecycle.map((l) => `${l.kind} ${l.claim ?? l.instanceId ?? ''}`),
      claimFailures: report.claimFailures.map(
        (f) => `${f.action} ${f.claim ?? f.instanceId ?? ''}: ${f.message}`,
      ),
      inFlight: report.inFlight,
    });
    for (const conflict of report.overlayConflicts ?? []) {
      logger.warn(overlayConflictWarning(conflict));
    }
    return response;
  };
  return middy(handle).use(injectLambdaContext(logger)).use(logMetrics(metrics));
}
