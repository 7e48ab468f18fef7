/**
 * Taking nodes away end to end: the interruption function, the controller's termination and
 * voluntary disruption, in the simulated world, read from the report a user reads — its
 * timeline, decisions, samples and invariant checks (no PDB violated, no do-not-disrupt pod
 * evicted, no budget exceeded, no moved pod left without a place).
 */
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import type { SimulationReport } from '../../simulator/run/simulation-report.ts';
import {
  consolidationScenario,
  driftScenario,
  RETIRED_SUBNET,
  spotInterruptionScenario,
  subnetDriftScenario,
} from '../../simulator/scenarios/disruption-scenarios.ts';

/** The burst the scenarios start from has settled by then, and the disruption begins. */
const DISRUPTION_STARTS = 240;

function invariantsHeld(report: SimulationReport): void {
  expect(report.summary.invariants.length).toBe(11);
  for (const invariant of report.summary.invariants) {
    expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
  }
}

/** When the timeline first says `<verb> <claim>`. */
function when(report: SimulationReport, verb: string, claim: string): number | undefined {
  return report.timeline.find((l) => l.message.startsWith(`${verb} ${claim}`))?.t;
}

function launchedClaims(report: SimulationReport, from: number, to: number): string[] {
  return report.decisions
    .filter((d) => d.kind === 'Launched' && d.t >= from && d.t < to)
    .map((d) => d.nodeClaim);
}

function disruptionReasons(report: SimulationReport): Set<string> {
  return new Set(
    report.decisions
      .filter((d) => d.kind === 'Disrupting')
      .map((d) => d.reason.split(':')[0] ?? ''),
  );
}

function budgetRespectedInEverySample(report: SimulationReport): void {
  for (const sample of report.samples) {
    expect(sample.disruptingNodes, `at ${sample.t}s`).toBeLessThanOrEqual(
      Math.max(sample.disruptionsAllowed, 0),
    );
  }
}

describe('taking nodes away in the simulated world', () => {
  it.each([
    { seed: 7, pods: 60 },
    // A two-node consolidation is under way when EC2 reclaims two other nodes; it finishes after
    // they are gone, in a pool whose 10% is then one node (docs/disruption.md, "Budgets").
    { seed: 1, pods: 40 },
  ])(
    'spot-interruption, seed $seed, $pods pods: replacements are Ready before the two minutes end and no pod is lost',
    async ({ seed, pods }) => {
      const report = await runSimulation(spotInterruptionScenario(seed, pods), { seed });
      invariantsHeld(report);
      expect(report.summary.pods).toEqual({ total: pods, running: pods, pending: 0 });
      const warning = report.timeline.find((l) => l.message.startsWith('EC2 warns it reclaims'));
      expect(warning?.t).toBe(DISRUPTION_STARTS);
      const reclaimAt = DISRUPTION_STARTS + 120;
      const replacements = launchedClaims(report, DISRUPTION_STARTS, DISRUPTION_STARTS + 10);
      expect(replacements.length).toBeGreaterThan(0);
      for (const claim of replacements) {
        expect(when(report, 'initialized', claim), claim).toBeLessThan(reclaimAt);
      }
      const interrupted = report.decisions.filter(
        (d) => d.kind === 'Terminated' && d.reason.startsWith('SpotInterrupted'),
      );
      expect(interrupted).toHaveLength(2);
      for (const done of interrupted) expect(done.t, done.nodeClaim).toBeLessThan(reclaimAt);
      expect(report.summary.leakedInstances).toBe(0);
    },
    120_000,
  );

  it('consolidation: a scale-down ends on a cheaper cluster without violating the PDB', async () => {
    const report = await runSimulation(consolidationScenario(7, 60), { seed: 7 });
    invariantsHeld(report);
    expect(report.summary.pods.pending).toBe(0);
    const before = report.samples.filter((s) => s.t < DISRUPTION_STARTS).at(-1);
    expect(report.summary.costPerHour).toBeLessThan((before?.costPerHour ?? 0) * 0.8);
    expect(report.summary.nodes.terminated).toBeGreaterThan(0);
    const reasons = disruptionReasons(report);
    expect([...reasons].filter((r) => r !== 'Empty' && r !== 'Underutilized')).toEqual([]);
    expect(reasons.has('Underutilized')).toBe(true);
    budgetRespectedInEverySample(report);
  }, 120_000);

  it.each([
    {
      name: 'drift',
      scenario: driftScenario,
      change: 'a new AMI',
      drift: 'AMIDrift',
      pods: 60,
      drifts: (_zone: string) => true,
      retiredZone: undefined,
      // Every node goes: its pods can go anywhere the new AMI runs.
      allRoll: true,
    },
    {
      name: 'subnet-drift',
      scenario: subnetDriftScenario,
      change: `${RETIRED_SUBNET.id} retired`,
      drift: 'SubnetDrift',
      pods: 60,
      drifts: (zone: string) => zone === RETIRED_SUBNET.zone,
      retiredZone: RETIRED_SUBNET.zone,
      // Pods spread over the zones may hold a node in the retired one.
      allRoll: false,
    },
  ])(
    '$name: once $change, the nodes it drifts roll within the budget, with every pod running again',
    async ({ scenario, change, drift, pods, drifts, retiredZone, allRoll }) => {
      const report = await runSimulation(scenario(7, pods), { seed: 7 });
      invariantsHeld(report);
      expect(report.summary.pods).toEqual({ total: pods, running: pods, pending: 0 });
      expect(disruptionReasons(report).has('Drifted')).toBe(true);
      const drifted = report.decisions.filter((d) => d.reason.startsWith('Drifted'));
      expect(
        drifted.every((d) => d.reason.includes(`(${drift}: `) && drifts(d.zone)),
        drifted[0]?.reason,
      ).toBe(true);
      const launched = report.decisions.filter((d) => d.kind === 'Launched');
      const before = launched.filter((d) => d.t < DISRUPTION_STARTS && drifts(d.zone));
      const gone = before.filter((d) => when(report, 'terminated', d.nodeClaim) !== undefined);
      expect(gone.length).toBeGreaterThan(0);
      if (allRoll) {
        const left = before.filter((d) => !gone.includes(d)).map((d) => d.nodeClaim);
        expect(left, `still running as before ${change}`).toEqual([]);
      }
      const since = launched.filter((d) => d.t >= DISRUPTION_STARTS);
      expect(since.filter((d) => d.zone === retiredZone).map((d) => d.nodeClaim)).toEqual([]);
      expect(Math.max(...report.samples.map((s) => s.disruptingNodes))).toBeGreaterThan(0);
      budgetRespectedInEverySample(report);
    },
    180_000,
  );
});
