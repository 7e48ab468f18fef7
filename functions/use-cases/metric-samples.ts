/** Counting events into Karpenter's counters: one sample per distinct set of labels. */
import type { MetricSample } from '../ports/metrics.ts';

/** The labels with a value: PromQL reads a label Karpenter leaves empty as absent. */
export function present(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([, value]) => value !== ''));
}

/** The counter's increase for each distinct label set among `events`, in first-seen order. */
export function counted(
  name: string,
  events: readonly Readonly<Record<string, string>>[],
): MetricSample[] {
  const byLabels = new Map<string, { labels: Record<string, string>; value: number }>();
  for (const event of events) {
    const labels = present(event);
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
    const seen = byLabels.get(key);
    if (seen === undefined) byLabels.set(key, { labels, value: 1 });
    else seen.value += 1;
  }
  return [...byLabels.values()].map(({ labels, value }) => ({
    name,
    unit: 'Count' as const,
    labels,
    value,
  }));
}

/** One observation each, in seconds (a histogram or summary of Karpenter's). */
export function observed(
  name: string,
  observations: readonly {
    readonly labels: Readonly<Record<string, string>>;
    readonly value: number;
  }[],
  unit: MetricSample['unit'] = 'Seconds',
): MetricSample[] {
  return observations.map(({ labels, value }) => ({ name, unit, labels: present(labels), value }));
}
