/**
 * The report's charts — pending and running pods, nodes by instance type, cost per hour (with
 * the cluster's hourly-cost limit, when there is one) and voluntary disruption against its
 * budget over simulated time — drawn by uPlot from the samples embedded as JSON. Each chart
 * container is marked `data-drawn="true"` once drawn, which the browser test checks.
 */
import type { Sample } from '../run/simulation-report.ts';

export interface ChartData {
  readonly t: readonly number[];
  readonly pending: readonly number[];
  readonly running: readonly number[];
  readonly cost: readonly number[];
  /** The cluster's hourly-cost limit at each sample; empty when there is none. */
  readonly costLimit: readonly (number | null)[];
  readonly disrupting: readonly number[];
  readonly allowed: readonly number[];
  /** Instance type → running nodes of that type at each sample. */
  readonly nodes: Readonly<Record<string, readonly number[]>>;
}

export function chartData(samples: readonly Sample[]): ChartData {
  const types = [...new Set(samples.flatMap((s) => Object.keys(s.nodesByType)))].sort();
  return {
    t: samples.map((s) => s.t),
    pending: samples.map((s) => s.pendingPods),
    running: samples.map((s) => s.runningPods),
    cost: samples.map((s) => s.costPerHour),
    costLimit: samples.some((s) => s.costLimit !== undefined)
      ? samples.map((s) => s.costLimit ?? null)
      : [],
    disrupting: samples.map((s) => s.disruptingNodes),
    allowed: samples.map((s) => s.disruptionsAllowed),
    nodes: Object.fromEntries(
      types.map((type) => [type, samples.map((s) => s.nodesByType[type] ?? 0)]),
    ),
  };
}

export const CHART_CONTAINERS = `<section class="charts">
<figure><figcaption>Pods</figcaption><div class="chart" data-chart="pending"></div></figure>
<figure><figcaption>Nodes by instance type</figcaption><div class="chart" data-chart="nodes"></div></figure>
<figure><figcaption>Cost per hour (USD)</figcaption><div class="chart" data-chart="cost"></div></figure>
<figure><figcaption>Voluntary disruption against the budget in force</figcaption><div class="chart" data-chart="budget"></div></figure>
</section>`;

/** Runs in the page: builds the four charts from `#chart-data`. */
export const CHART_SCRIPT = `(() => {
  const data = JSON.parse(document.getElementById('chart-data').textContent);
  const palette = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#4b5563', '#ea580c'];
  const clock = (t) => Math.floor(t / 60) + ':' + String(Math.round(t % 60)).padStart(2, '0');
  const x = { scales: { x: { time: false } }, axes: [{ values: (u, ticks) => ticks.map(clock) }, {}] };
  function draw(name, series, columns) {
    const el = document.querySelector('[data-chart="' + name + '"]');
    const width = Math.max(320, el.clientWidth || 640);
    new uPlot({ ...x, width, height: 220, series: [{ label: 'time', value: (u, v) => clock(v) }, ...series] }, [data.t, ...columns], el);
    el.dataset.drawn = 'true';
  }
  const line = (label, i, extra) => ({ label, stroke: palette[i % palette.length], width: 2, ...extra });
  draw('pending', [line('pending', 1), line('running', 2)], [data.pending, data.running]);
  const types = Object.keys(data.nodes);
  draw('nodes', types.map((type, i) => line(type, i)), types.map((type) => data.nodes[type]));
  const dollars = (u, v) => v == null ? '' : '$' + v.toFixed(4);
  const cost = [line('$ per hour', 0, { fill: 'rgba(37, 99, 235, 0.12)', value: dollars })];
  if (data.costLimit.length > 0) cost.push(line('hourly-cost limit', 1, { dash: [6, 4], value: dollars }));
  draw('cost', cost, data.costLimit.length > 0 ? [data.cost, data.costLimit] : [data.cost]);
  draw('budget', [line('nodes being disrupted', 1, { fill: 'rgba(220, 38, 38, 0.12)' }), line('budget allows', 8, { dash: [6, 4] })], [data.disrupting, data.allowed]);
})();`;
