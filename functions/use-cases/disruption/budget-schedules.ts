/**
 * The cron reader the disruption budgets of these NodePools need. cron-parser, with luxon under
 * it, is loaded only when a budget has a schedule: most pools' budgets have none, and compiling
 * the two was part of every controller import (docs/design.md §7.1).
 */
import type { CronSchedules } from '../../domain/disruption/budgets.ts';
import type { NodePool } from '../../domain/node-pool.ts';

/** Never asked: a budget without a schedule is active at all times, no cron read. */
const UNSCHEDULED: CronSchedules = { nextFire: () => undefined };

function hasSchedule(pool: NodePool): boolean {
  return (pool.spec.disruption?.budgets ?? []).some((budget) => budget.schedule !== undefined);
}

export async function budgetSchedules(pools: readonly NodePool[]): Promise<CronSchedules> {
  if (!pools.some(hasSchedule)) return UNSCHEDULED;
  const { cronSchedules } = await import('./cron-schedules.ts');
  return cronSchedules;
}
