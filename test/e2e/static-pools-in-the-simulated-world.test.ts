/**
 * A static NodePool end to end (core: pkg/controllers/static): the `static-pools` scenario's
 * `ingress` pool holds its three nodes through the burst, launches two more when scaled to five
 * and drains three when scaled to two, never launching for a pod; read from the report a user
 * reads, with every invariant held.
 */
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import type { SimulationReport } from '../../simulator/run/simulation-report.ts';
import { staticPoolsScenario } from '../../simulator/scenarios/static-pools.ts';

const SCALED_UP_AT = 240;
const SCALED_DOWN_AT = 480;

function ingress(report: SimulationReport, kind: string, from: number, to = Infinity) {
  return report.decisions.filter(
    (d) => d.nodePool === 'ingress' && d.kind === kind && d.t >= from && d.t < to,
  );
}

describe('a static NodePool in the simulated world', () => {
  it('holds its count through a burst, then scales up and down through the usual drain', async () => {
    // Prepare, Act
    const report = await runSimulation(staticPoolsScenario(7, 40), { seed: 7 });

    // Assess
    for (const invariant of report.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
    expect(report.summary.pods).toEqual({ total: 40, running: 40, pending: 0 });
    expect(ingress(report, 'Launched', 0, SCALED_UP_AT)).toHaveLength(3);
    expect(ingress(report, 'Launched', SCALED_UP_AT, SCALED_DOWN_AT)).toHaveLength(2);
    expect(ingress(report, 'Launched', SCALED_DOWN_AT)).toHaveLength(0);
    for (const launch of ingress(report, 'Launched', 0))
      expect(launch.reason).toBe("to keep its static NodePool's replicas");
    const going = ingress(report, 'Disrupting', SCALED_DOWN_AT);
    expect(going).toHaveLength(3);
    for (const d of going)
      expect(d.reason).toMatch(/^Overprovisioned: NodePool ingress has 5 nodes and wants 2/);
    expect(ingress(report, 'Terminated', 0)).toHaveLength(3);
  }, 120_000);
});
