/** The summary line of a run: the `simulate --output json` object of docs/design.md §6.4. */
import { checkInvariants, type RunOutcome } from './invariants.ts';
import { pendingReasons } from './pending-reasons.ts';
import type { SimulationSummary } from './simulation-report.ts';

export function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

export function summarize(
  scenario: string,
  outcome: RunOutcome,
  latenciesMs: readonly number[],
): Omit<SimulationSummary, 'wakes'> {
  const { pods, instances, claims, passes } = outcome;
  const running = pods.filter((p) => p.nodeName !== undefined).length;
  const live = instances.filter((i) => i.terminatedAt === undefined);
  // Nodes running and cost are the cluster's; launches and leaks are Nodesmith's own.
  const launched = instances.filter((i) => i.origin === 'nodesmith');
  const owned = live.filter((i) => i.owned);
  const claimNames = new Set(claims.map((c) => c.name));
  const latencies = [...latenciesMs].sort((a, b) => a - b);
  return {
    scenario,
    pods: { total: pods.length, running, pending: pods.length - running },
    nodes: {
      launched: launched.length,
      terminated: instances.length - live.length,
      running: live.length,
    },
    costPerHour: round4(live.reduce((sum, i) => sum + i.pricePerHour, 0)),
    decisionLatencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    launches: launched.length,
    replans: passes.reduce((n, p) => n + p.replannedPods, 0),
    duplicateLaunches: launched.length - new Set(launched.map((i) => i.nodeClaim)).size,
    leakedInstances: owned.filter((i) => !claimNames.has(i.nodeClaim)).length,
    unschedulable: pendingReasons(pods, outcome.unschedulable),
    invariants: checkInvariants(outcome),
  };
}
