/**
 * Every built-in scenario on each wake path (issue 23): on the admission wake the world applies
 * deploy/wake-webhook.yaml and the simulated API server calls the relay for pending pods; on the
 * audit wake the audit log reaches the relay a minute late, as EKS delivers it; on the tick only
 * the schedule wakes the controller. Every invariant holds on each, no other path wakes it, and
 * the controller's own wakes stay one chain.
 */
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import type { WakePath } from '../../simulator/run/world.ts';
import { BUILT_IN_SCENARIOS } from '../../simulator/scenarios/built-in-scenarios.ts';

const SEED = 3;
const PODS = 12;

const SCENARIOS = Object.entries(BUILT_IN_SCENARIOS);

const WAKE_PATHS: readonly WakePath[] = ['admission', 'audit', 'tick'];

/** A drift run under a loaded machine takes tens of seconds. */
const RUN_MS = 120_000;

describe.each(WAKE_PATHS)('every scenario on the %s wake', (wake) => {
  it.each(SCENARIOS)(
    '%s holds every invariant, the controller’s own wakes one chain',
    async (_name, scenario) => {
      // Prepare, Act
      const report = await runSimulation(scenario(SEED, PODS), { seed: SEED, wake });

      // Assess
      for (const invariant of report.summary.invariants) {
        expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
      }
      // No other path woke the controller. The admission call comes at once; the audit log
      // comes a minute late, and a small run can be done on the tick's pass before it does.
      const { wakes } = report.summary;
      for (const other of WAKE_PATHS.filter((p) => p !== wake && p !== 'tick')) {
        expect(wakes[other], other).toBe(0);
      }
      if (wake === 'admission') expect(wakes.admission).toBeGreaterThan(0);
      // The controller's own wakes make one chain, however many passes other wakes start
      // while claims are in flight: at most one in each ten seconds of the run.
      expect(wakes.self).toBeLessThanOrEqual(Math.ceil(report.duration / 10) + 1);
    },
    RUN_MS,
  );
});
