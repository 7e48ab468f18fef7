/**
 * One fault run: the scenario and the fault plan its seed draws, run in the simulated world
 * with the state on the caller's store (DynamoDB Local), then judged. A run converges when
 * every pod runs or was reported unschedulable with a reason, no instance is left without its
 * claim, no claim without its instance, and the invariants hold; it must also settle before
 * the scenario's time limit, so nothing is left half-done.
 */
import type { StateStore } from '../../functions/ports/state-store.ts';
import { runSimulation } from '../run/run-simulation.ts';
import { seededRandom } from '../scenarios/random.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import { FaultPlan, type FaultPlanSummary } from './fault-plan.ts';
import { faultScenario } from './fault-scenario.ts';

/**
 * Judged elsewhere: the same-pass re-plan is a latency promise (docs/design.md §7.1), and a fault
 * in the pass that met a capacity error (an exit, a throttled launch) rightly leaves pods to the
 * next.
 */
const NOT_REQUIRED = new Set(['capacity errors re-planned in the same pass']);

export interface FaultRunResult {
  readonly seed: number;
  readonly converged: boolean;
  /** Why it did not converge: the invariants that failed, or the time limit reached. */
  readonly problems: readonly string[];
  /** Faults that took effect, by kind. */
  readonly faults: Readonly<Record<string, number>>;
  readonly plan: FaultPlanSummary;
  readonly pods: number;
  readonly launches: number;
  /** Simulated seconds until the run settled. */
  readonly seconds: number;
}

/** Until the last step and its quiet time are over: when faults can still meet work. */
function activeSeconds(scenario: Scenario): number {
  const lastStep = Math.max(0, ...scenario.steps.map((s) => s.at));
  return lastStep + Math.max(120, scenario.quietSeconds ?? 0);
}

export async function runFaultRun(seed: number, state: StateStore): Promise<FaultRunResult> {
  const scenario = faultScenario(seed, seededRandom(seed));
  const plan = new FaultPlan(seed, activeSeconds(scenario), scenario.zones);
  const report = await runSimulation(scenario, {
    seed,
    state,
    concurrentPasses: plan.summary.concurrentPasses,
    faults: plan,
  });
  const problems = report.summary.invariants
    .filter((i) => !i.held && !NOT_REQUIRED.has(i.name))
    .map((i) => `${i.name}: ${i.detail}`);
  if (report.duration >= scenario.maxSeconds) {
    problems.push(`not settled after ${scenario.maxSeconds} simulated seconds`);
  }
  return {
    seed,
    converged: problems.length === 0,
    problems,
    faults: plan.injected(),
    plan: plan.summary,
    pods: report.summary.pods.total,
    launches: report.summary.launches,
    seconds: report.duration,
  };
}
