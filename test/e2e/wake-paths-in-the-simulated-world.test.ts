/**
 * Every built-in scenario on the admission wake (issue 23): the world applies
 * deploy/wake-webhook.yaml, the simulated API server calls the relay for pending pods, and every
 * invariant holds with the controller woken by admission calls, never by the audit log.
 */
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import { burstScenario, capacityErrorsScenario } from '../../simulator/scenarios/burst.ts';
import {
  consolidationScenario,
  driftScenario,
  spotInterruptionScenario,
  subnetDriftScenario,
} from '../../simulator/scenarios/disruption-scenarios.ts';
import { limitsScenario } from '../../simulator/scenarios/limits-scenario.ts';
import { reservationsScenario } from '../../simulator/scenarios/reservations.ts';
import type { Scenario } from '../../simulator/scenarios/scenario.ts';
import { staticPoolsScenario } from '../../simulator/scenarios/static-pools.ts';
import { takeoverScenario } from '../../simulator/scenarios/takeover.ts';

const SEED = 3;
const PODS = 12;

const SCENARIOS: readonly (readonly [string, (seed: number, pods: number) => Scenario])[] = [
  ['burst', burstScenario],
  ['capacity-errors', capacityErrorsScenario],
  ['spot-interruption', spotInterruptionScenario],
  ['consolidation', consolidationScenario],
  ['drift', driftScenario],
  ['subnet-drift', subnetDriftScenario],
  ['limits', limitsScenario],
  ['takeover', takeoverScenario],
  ['static-pools', staticPoolsScenario],
  ['reservations', reservationsScenario],
];

describe('every scenario on the admission wake', () => {
  it.each(SCENARIOS)('%s holds every invariant', async (_name, scenario) => {
    // Prepare, Act
    const report = await runSimulation(scenario(SEED, PODS), { seed: SEED, wake: 'admission' });

    // Assess
    for (const invariant of report.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
    expect(report.summary.wakes.admission).toBeGreaterThan(0);
    expect(report.summary.wakes.audit).toBe(0);
  });
});
