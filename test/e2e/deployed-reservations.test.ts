/**
 * `nodesmith simulate --deployed --scenario reservations`: the controller's bundle finds the
 * account's reservations with DescribeCapacityReservations and launches into them through
 * CreateFleet with launch templates that target each one; the simulated EC2 puts each instance in
 * its reservation and counts it, so no reservation takes more than it holds. The reservations fill
 * first, spot and on-demand take the rest, every invariant holds and nothing is denied.
 */
import { describe, expect, it } from 'vitest';
import { deployedRun } from '../../simulator/deployed/deployed-run.ts';
import { reservationsScenario } from '../../simulator/scenarios/reservations.ts';

const DEPLOYED_RUN_MS = 240_000;

describe('nodesmith simulate --deployed --scenario reservations', () => {
  it(
    'fills the reservations first, each to what it holds, with every invariant held and nothing denied',
    async () => {
      // Prepare
      const scenario = reservationsScenario(7, 60);

      // Act
      const report = await deployedRun(scenario, { seed: 7, deny: [] });

      // Assess
      const { summary } = report;
      expect(summary.invariants.filter((i) => !i.held)).toEqual([]);
      expect(summary.aws?.denied).toEqual([]);
      expect(summary.kubernetes?.denied).toEqual([]);
      expect(summary.pods).toEqual({ total: 60, running: 60, pending: 0 });
      expect(summary.aws?.calls['ec2:DescribeCapacityReservations']).toBeGreaterThan(0);
      const launched = report.decisions.filter((d) => d.kind === 'Launched');
      const reserved = launched.filter((d) => d.capacityType === 'reserved');
      for (const { id, instanceType, zone, count } of scenario.reservations ?? []) {
        const into = reserved.filter((d) => d.instanceType === instanceType && d.zone === zone);
        expect(into.length, id).toBe(count);
      }
      const first = Math.min(...launched.map((d) => d.t));
      expect(reserved.some((d) => d.t === first)).toBe(true);
      for (const d of reserved) expect(d.pricePerHour).toBeLessThan(0.0001);
      // The burst outgrows the reservations' seven instances: the rest is spot or on-demand.
      expect(launched.length).toBeGreaterThan(reserved.length);
    },
    DEPLOYED_RUN_MS,
  );
});
