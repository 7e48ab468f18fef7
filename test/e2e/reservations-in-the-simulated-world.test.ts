/**
 * Capacity reservations end to end (aws: offering/reserved_capacity_resolver.go; core:
 * scheduling/reservationmanager.go): the `reservations` scenario's account holds two ODCRs and a
 * capacity block the EC2NodeClass selects; its nodes go into them first, priced as already paid
 * for, no reservation takes more than it holds, and spot and on-demand take the rest, with every
 * invariant held.
 */
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../simulator/run/run-simulation.ts';
import { reservationsScenario } from '../../simulator/scenarios/reservations.ts';

describe('capacity reservations in the simulated world', () => {
  it('fills the reservations first, each to what it holds, and launches the rest as spot or on-demand', async () => {
    // Prepare
    const scenario = reservationsScenario(7, 120);

    // Act
    const report = await runSimulation(scenario, { seed: 7 });

    // Assess
    for (const invariant of report.summary.invariants) {
      expect(invariant.held, `${invariant.name}: ${invariant.detail}`).toBe(true);
    }
    expect(report.summary.pods).toEqual({ total: 120, running: 120, pending: 0 });
    const launched = report.decisions.filter((d) => d.kind === 'Launched');
    const reserved = launched.filter((d) => d.capacityType === 'reserved');
    const byReservation = (type: string, zone: string) =>
      reserved.filter((d) => d.instanceType === type && d.zone === zone).length;
    expect(byReservation('m6i.2xlarge', 'us-east-1a')).toBe(3);
    expect(byReservation('c6i.4xlarge', 'us-east-1b')).toBe(2);
    expect(byReservation('r6i.2xlarge', 'us-east-1c')).toBe(2);
    expect(reserved).toHaveLength(7);
    // The first pass already launches into a reservation; the last reserved node comes before
    // the burst's last workload is placed, on spot and on-demand.
    const first = Math.min(...launched.map((d) => d.t));
    expect(reserved.some((d) => d.t === first)).toBe(true);
    const lastReserved = Math.max(...reserved.map((d) => d.t));
    expect(launched.some((d) => d.capacityType !== 'reserved' && d.t > lastReserved)).toBe(true);
    for (const d of reserved) expect(d.pricePerHour).toBeLessThan(0.0001);
    expect(launched.length).toBeGreaterThan(reserved.length);
  }, 120_000);
});
