import { describe, expect, it } from 'vitest';
import { allowance } from '../../../functions/domain/disruption/budgets.ts';
import type { DisruptionBudget } from '../../../functions/domain/node-pool.ts';
import { budgetSchedules } from '../../../functions/use-cases/disruption/budget-schedules.ts';
import { cronSchedules } from '../../../functions/use-cases/disruption/cron-schedules.ts';
import { aDisruptionPool } from '../../support/disruption-builders.ts';

const MORNING = Date.parse('2026-06-01T10:30:00Z');
const COUNTS = { nodes: 10, disrupting: 0 };

describe('the cron reader a pass takes for its pools', () => {
  it('is cron-parser once a budget has a schedule', async () => {
    // Prepare
    const businessHours = aDisruptionPool({
      budgets: [{ nodes: '0', schedule: '0 9 * * *', duration: '8h' }],
    });
    const pools = [
      aDisruptionPool({ budgets: [{ nodes: '3' }] }, { name: 'plain' }),
      businessHours,
    ];

    // Act
    const cron = await budgetSchedules(pools);

    // Assess: the business-hours budget is in force at half past ten
    expect(cron).toBe(cronSchedules);
    expect(allowance(businessHours, 'Underutilized', COUNTS, MORNING, cron).allowed).toBe(0);
  });

  it('allows what cron-parser would for pools without a schedule', async () => {
    // Prepare
    const budgets: DisruptionBudget[][] = [
      [{ nodes: '3' }],
      [{ nodes: '0', reasons: ['Drifted'] }, { nodes: '40%' }],
    ];
    const pools = budgets.map((b, i) => aDisruptionPool({ budgets: b }, { name: `pool-${i}` }));
    pools.push(aDisruptionPool(undefined, { name: 'defaults' }));

    // Act
    const cron = await budgetSchedules(pools);

    // Assess
    for (const pool of pools) {
      for (const reason of ['Drifted', 'Underutilized'] as const) {
        expect(allowance(pool, reason, COUNTS, MORNING, cron)).toEqual(
          allowance(pool, reason, COUNTS, MORNING, cronSchedules),
        );
      }
    }
  });
});
