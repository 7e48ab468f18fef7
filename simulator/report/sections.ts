/** The report's HTML sections: summary figures, invariants, decisions and the timeline. */
import type { SimulationReport } from '../run/simulation-report.ts';
import { escapeHtml as e } from './escape.ts';

export function clock(t: number): string {
  return `${Math.floor(t / 60)}:${String(Math.round(t % 60)).padStart(2, '0')}`;
}

const money = (n: number) => `$${n.toFixed(4)}/h`;

function figure(label: string, value: string, tone = ''): string {
  return `<div class="figure ${tone}"><div class="value">${e(value)}</div><div class="label">${e(label)}</div></div>`;
}

export function summarySection({ summary }: SimulationReport): string {
  const { pods, nodes } = summary;
  const bad = (n: number) => (n > 0 ? 'bad' : 'good');
  return `<section class="figures">
${figure('pods running', `${pods.running} / ${pods.total}`, pods.pending > 0 ? 'bad' : 'good')}
${figure('pods pending', String(pods.pending))}
${figure('nodes running', String(nodes.running))}
${figure('nodes launched / terminated', `${nodes.launched} / ${nodes.terminated}`)}
${figure('cost', money(summary.costPerHour))}
${figure('decision latency p50 / p99', `${summary.decisionLatencyMs.p50 / 1000}s / ${summary.decisionLatencyMs.p99 / 1000}s`)}
${figure('pods re-planned after capacity errors', String(summary.replans))}
${figure('duplicate launches', String(summary.duplicateLaunches), bad(summary.duplicateLaunches))}
${figure('leaked instances', String(summary.leakedInstances), bad(summary.leakedInstances))}
</section>`;
}

export function invariantsSection({ summary }: SimulationReport): string {
  const rows = summary.invariants
    .map(
      (i) =>
        `<li class="${i.held ? 'held' : 'failed'}"><span class="mark">${i.held ? '✓' : '✗'}</span> <b>${e(i.name)}</b> — ${e(i.detail)}</li>`,
    )
    .join('\n');
  return `<section><h2>Invariants</h2><ul class="invariants">${rows}</ul></section>`;
}

export function decisionsSection({ decisions }: SimulationReport): string {
  const rows = decisions
    .map(
      (d) =>
        `<tr><td>${clock(d.t)}</td><td>${e(d.kind)}</td><td>${e(d.nodeClaim)}</td><td>${e(d.nodePool)}</td><td>${e(d.instanceType)}</td><td>${e(d.zone)}</td><td>${e(d.capacityType)}</td><td class="num">${money(d.pricePerHour)}</td><td>${e(d.reason)}</td></tr>`,
    )
    .join('\n');
  return `<section><h2>Decisions (${decisions.length})</h2>
<table class="decisions"><thead><tr><th>time</th><th>decision</th><th>node claim</th><th>pool</th><th>type</th><th>zone</th><th>capacity</th><th>price</th><th>reason</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
}

export function timelineSection({ timeline }: SimulationReport): string {
  const lines = timeline.map((l) => `${clock(l.t).padStart(5)}  ${e(l.message)}`).join('\n');
  return `<section><details><summary>Timeline (${timeline.length} lines)</summary><pre class="timeline">${lines}</pre></details></section>`;
}
