import { describe, expect, it } from 'vitest';
import { allowance } from '../../../functions/domain/disruption/budgets.ts';
import type { DisruptionBudget } from '../../../functions/domain/node-pool.ts';
import { cronSchedules } from '../../../functions/use-cases/disruption/cron-schedules.ts';
import { aDisruptionPool } from '../../support/disruption-builders.ts';

const at = (iso: string) => Date.parse(iso);
const MORNING = at('2026-06-01T10:30:00Z');

function allowed(
  budgets: DisruptionBudget[] | undefined,
  reason: 'Empty' | 'Drifted' | 'Underutilized' = 'Underutilized',
  counts = { nodes: 10, disrupting: 0 },
  nowMs = MORNING,
): number {
  const pool = aDisruptionPool(budgets === undefined ? {} : { budgets });
  return allowance(pool, reason, counts, nowMs, cronSchedules).allowed;
}

describe('disruption budgets', () => {
  it('defaults to 10% of the nodes, rounded up', () => {
    expect(allowed(undefined)).toBe(1);
    expect(allowed(undefined, 'Underutilized', { nodes: 11, disrupting: 0 })).toBe(2);
  });

  it('reads a count and a percentage, rounding the percentage up', () => {
    expect(allowed([{ nodes: '3' }])).toBe(3);
    expect(allowed([{ nodes: '5%' }])).toBe(1);
    expect(allowed([{ nodes: '100%' }])).toBe(10);
    expect(allowed([{ nodes: '0' }])).toBe(0);
  });

  it('takes the most restrictive of the budgets that apply', () => {
    expect(allowed([{ nodes: '50%' }, { nodes: '2' }, { nodes: '30%' }])).toBe(2);
  });

  it('applies a budget only to the reasons it names', () => {
    const budgets: DisruptionBudget[] = [{ nodes: '0', reasons: ['Drifted'] }, { nodes: '4' }];
    expect(allowed(budgets, 'Drifted')).toBe(0);
    expect(allowed(budgets, 'Underutilized')).toBe(4);
    expect(allowed(budgets, 'Empty')).toBe(4);
  });

  it('applies a scheduled budget only inside its window (cron in UTC)', () => {
    const businessHours: DisruptionBudget[] = [
      { nodes: '0', schedule: '0 9 * * *', duration: '8h' },
    ];
    expect(allowed(businessHours, 'Underutilized', undefined, at('2026-06-01T10:30:00Z'))).toBe(0);
    expect(allowed(businessHours, 'Underutilized', undefined, at('2026-06-01T09:00:00Z'))).toBe(0);
    expect(allowed(businessHours, 'Underutilized', undefined, at('2026-06-01T17:30:00Z'))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(allowed(businessHours, 'Underutilized', undefined, at('2026-06-01T08:59:00Z'))).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('reads cron macros', () => {
    const nightly: DisruptionBudget[] = [{ nodes: '0', schedule: '@daily', duration: '1h' }];
    expect(allowed(nightly, 'Underutilized', undefined, at('2026-06-01T00:30:00Z'))).toBe(0);
    expect(allowed(nightly, 'Underutilized', undefined, at('2026-06-01T01:30:00Z'))).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('counts nodes already disrupting or NotReady against the allowance', () => {
    expect(allowed([{ nodes: '3' }], 'Underutilized', { nodes: 10, disrupting: 2 })).toBe(1);
    expect(allowed([{ nodes: '3' }], 'Underutilized', { nodes: 10, disrupting: 5 })).toBe(0);
  });

  it('allows nothing when a budget cannot be read, and says which', () => {
    const pool = aDisruptionPool({
      budgets: [{ nodes: '5', schedule: 'not cron', duration: '1h' }],
    });
    const result = allowance(pool, 'Empty', { nodes: 10, disrupting: 0 }, MORNING, cronSchedules);
    expect(result.allowed).toBe(0);
    expect(result.budget).toContain('cannot be read');
  });
});
