/**
 * Pod marked Unschedulable → its claim launched (`decisionLatencyMs`), in simulated time, for
 * every built-in scenario run in process as `nodesmith simulate --scenario NAME -o json` runs
 * it: 300 pods, seed 1. The budget is docs/design.md §7.1's p99 ≤ 3 s.
 */
import { runSimulation } from '../simulator/run/run-simulation.ts';
import { BUILT_IN_SCENARIOS } from '../simulator/scenarios/built-in-scenarios.ts';

// The handlers' logs and metrics would bury the figures.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const PODS = 300;
const SEED = 1;
const BUDGET_MS = 3000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;

export async function benchDecisionLatency(): Promise<void> {
  console.log(`\ndecision latency: pod marked Unschedulable → its claim launched, simulated time`);
  console.log(`(${PODS} pods, seed ${SEED}, in process; budget p99 ≤ ${seconds(BUDGET_MS)})`);
  console.log('| scenario | p50 | p99 | budget |');
  console.log('|---|---:|---:|---|');
  for (const [name, scenario] of Object.entries(BUILT_IN_SCENARIOS)) {
    const report = await runSimulation(scenario(SEED, PODS), { seed: SEED });
    const { p50, p99 } = report.summary.decisionLatencyMs;
    const verdict = p99 <= BUDGET_MS ? 'met' : 'over';
    console.log(`| ${name} | ${seconds(p50)} | ${seconds(p99)} | ${verdict} |`);
  }
}
