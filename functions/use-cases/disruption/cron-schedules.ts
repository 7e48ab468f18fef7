/**
 * Disruption budget schedules through cron-parser: five fields or a macro (`@daily`), in UTC, as
 * Karpenter reads them (robfig/cron ParseStandard with `TZ=UTC`).
 */
import { CronExpressionParser } from 'cron-parser';
import type { CronSchedules } from '../../domain/disruption/budgets.ts';

export const cronSchedules: CronSchedules = {
  nextFire(schedule, afterMs) {
    try {
      const expression = CronExpressionParser.parse(schedule, {
        currentDate: new Date(afterMs),
        tz: 'UTC',
        strict: false,
      });
      return expression.next().getTime();
    } catch {
      return undefined;
    }
  },
};
