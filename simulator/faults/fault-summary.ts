/** What a fault campaign prints: runs, faults injected by kind, faults survived, failing seeds. */
import type { FaultRunResult } from './fault-run.ts';

export interface CampaignSummary {
  readonly runs: number;
  readonly failed: number;
  readonly injected: Readonly<Record<string, number>>;
  readonly survived: number;
  readonly text: string;
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

export function campaignSummary(
  results: readonly FaultRunResult[],
  elapsedMs: number,
): CampaignSummary {
  const injected: Record<string, number> = {};
  for (const result of results) {
    for (const [kind, n] of Object.entries(result.faults))
      injected[kind] = (injected[kind] ?? 0) + n;
  }
  const failing = results.filter((r) => !r.converged);
  const survived = results.filter((r) => r.converged).reduce((n, r) => n + sum(r.faults), 0);
  const kinds = Object.keys(injected).sort();
  const width = Math.max(0, ...kinds.map((k) => k.length));
  const lines = [
    `${results.length} runs, ${results.length - failing.length} converged, in ${(elapsedMs / 1000).toFixed(0)} s`,
    `faults injected: ${sum(injected)}, survived: ${survived}`,
    ...kinds.map((kind) => `  ${kind.padEnd(width)}  ${injected[kind]}`),
    failing.length === 0
      ? 'no failing seed'
      : `failing seeds (repeat with npm run faults -- --seed N): ${failing.map((r) => r.seed).join(', ')}`,
  ];
  return {
    runs: results.length,
    failed: failing.length,
    injected,
    survived,
    text: lines.join('\n'),
  };
}
