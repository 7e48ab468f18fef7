/**
 * `spec.disruption` of a NodePool with the CRD's defaults: an absent block becomes
 * `{consolidateAfter: 0s}`, then the policy defaults to WhenEmptyOrUnderutilized and the budgets
 * to one `10%` budget (core: pkg/apis/v1/nodepool.go).
 */
import * as z from 'zod';
import { describeValue } from '../issue-messages.ts';
import { durationOrNever, patterned } from './fields.ts';
import { BUDGET_DURATION, CRON_SCHEDULE, NODE_COUNT } from './formats.ts';

/** YAML reads `nodes: 0` as a number, which the CRD refuses; say how to fix it. */
const nodes = z
  .string({
    error: (iss) =>
      iss.input === undefined
        ? undefined
        : `must be a string, got ${describeValue(iss.input)}; quote it, e.g. "0" or "10%"`,
  })
  .refine((text) => NODE_COUNT.test(text), {
    error: (iss) =>
      `${describeValue(iss.input)} is not a node count such as "5" or a percentage such as "10%"`,
  });

const budget = z
  .strictObject({
    nodes: nodes.default('10%'),
    schedule: patterned(
      CRON_SCHEDULE,
      'a cron schedule of five fields such as "0 9 * * mon-fri" or a macro such as @daily',
    ).optional(),
    duration: patterned(
      BUDGET_DURATION,
      'a duration in hours and minutes such as 8h, 30m or 1h30m',
    ).optional(),
    reasons: z
      .array(z.enum(['Underutilized', 'Empty', 'Drifted']))
      .max(50)
      .optional(),
  })
  .superRefine((entry, ctx) => {
    if ((entry.schedule === undefined) === (entry.duration === undefined)) return;
    const missing = entry.schedule === undefined ? 'schedule' : 'duration';
    ctx.addIssue({
      code: 'custom',
      message: `schedule and duration must be set together; ${missing} is missing`,
      path: [missing],
    });
  });

export const disruption = z
  .strictObject({
    consolidateAfter: durationOrNever,
    consolidationPolicy: z
      .enum(['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'])
      .default('WhenEmptyOrUnderutilized'),
    budgets: z
      .array(budget)
      .max(50)
      .default(() => [{ nodes: '10%' }]),
  })
  .prefault({ consolidateAfter: '0s' });
