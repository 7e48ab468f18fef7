/**
 * The self-contained HTML report of a simulation: summary figures, charts, invariants, a
 * deployed run's AWS calls and denials, decisions and the timeline in one file that opens
 * without network access.
 */
import type { SimulationReport } from '../run/simulation-report.ts';
import { accessSection } from './access-section.ts';
import { CHART_CONTAINERS, CHART_SCRIPT, chartData } from './charts.ts';
import { escapeHtml as e, scriptJson } from './escape.ts';
import {
  clock,
  decisionsSection,
  invariantsSection,
  summarySection,
  timelineSection,
} from './sections.ts';
import { type ChartAssets, uplotAssets } from './uplot-assets.ts';

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2937; background: #f9fafb; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 10px; }
.meta { color: #6b7280; margin-bottom: 18px; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; }
.figure { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 10px 12px; }
.figure .value { font-size: 20px; font-weight: 600; } .figure .label { color: #6b7280; font-size: 12px; }
.figure.good .value { color: #15803d; } .figure.bad .value { color: #b91c1c; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 12px; margin-top: 18px; }
figure { margin: 0; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 10px; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.invariants { list-style: none; padding: 0; } .invariants li { padding: 4px 0; }
.invariants .held .mark { color: #15803d; } .invariants .failed .mark { color: #b91c1c; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: 13px; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; position: sticky; top: 0; } td.num { text-align: right; white-space: nowrap; }
td.denied, tr.denied td { background: #fef2f2; color: #b91c1c; font-weight: 600; }
.nothing-denied { color: #15803d; }
pre.timeline { background: #111827; color: #e5e7eb; padding: 12px; border-radius: 8px; overflow: auto; max-height: 480px; }
footer { color: #9ca3af; font-size: 12px; margin-top: 28px; }
`;

export function renderHtmlReport(
  report: SimulationReport,
  assets: ChartAssets = uplotAssets(),
): string {
  const { summary } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nodesmith simulate — ${e(summary.scenario)}</title>
<style>${assets.style}</style>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>nodesmith simulate: ${e(summary.scenario)}</h1>
<div class="meta">seed ${report.seed} · ${clock(report.duration)} of simulated time · ${report.samples.length} samples</div>
${summarySection(report)}
${CHART_CONTAINERS}
${invariantsSection(report)}
${accessSection(report)}
${decisionsSection(report)}
${timelineSection(report)}
<footer>Charts drawn with uPlot 1.6.32 (MIT, © Leon Sorokin), inlined.</footer>
</main>
<script type="application/json" id="chart-data">${scriptJson(chartData(report.samples))}</script>
<script>${assets.script}</script>
<script>${CHART_SCRIPT}</script>
</body>
</html>
`;
}
