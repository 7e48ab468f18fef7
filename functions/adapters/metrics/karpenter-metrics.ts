/**
 * Karpenter-named samples to CloudWatch through Powertools' embedded metric format
 * (docs/metrics.md): one line per sample, dimensioned by its labels beside `service`, and again
 * by `service` alone, so a dashboard or alarm reads the sum over the labels without a search —
 * what `sum(...)` of the Prometheus metric gives.
 */
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricSample } from '../../ports/metrics.ts';

const UNIT = {
  Count: MetricUnit.Count,
  Seconds: MetricUnit.Seconds,
  None: MetricUnit.NoUnit,
} as const;

export function emitSamples(metrics: Metrics, samples: readonly MetricSample[]): void {
  for (const sample of samples) {
    const line = metrics.singleMetric();
    for (const [name, value] of Object.entries(sample.labels)) line.addDimension(name, value);
    // A second dimension set of `service` alone: the total across the labels.
    if (Object.keys(sample.labels).length > 0) line.addDimensions({});
    line.addMetric(sample.name, UNIT[sample.unit], sample.value);
  }
}
