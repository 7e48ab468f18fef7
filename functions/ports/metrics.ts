/**
 * One data point of a metric named and labelled as Karpenter's Prometheus metric is
 * (docs/metrics.md); the handlers hand them to CloudWatch.
 */
export interface MetricSample {
  /** Karpenter's metric name (`karpenter_nodes_created_total`). */
  readonly name: string;
  /** `Count` for a counter's increase, `Seconds` for one observation of a duration. */
  readonly unit: 'Count' | 'Seconds' | 'None';
  /** Karpenter's labels; one with an empty value is left out, as PromQL reads it as absent. */
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}
