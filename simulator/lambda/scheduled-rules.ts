/**
 * The template's scheduled rules fired on the simulated clock, as EventBridge fires them: a
 * `rate(…)` rule every period from when it was created, a `cron(…)` rule at each time its
 * expression names (UTC), each firing sending its targets the "Scheduled Event" (or their own
 * input) (Amazon EventBridge User Guide, "Creating a rule that runs on a schedule").
 */
import { randomUUID } from 'node:crypto';
import { cronSchedules } from '../../functions/use-cases/disruption/cron-schedules.ts';
import type { RuleDefinition, RuleTarget } from './event-rules.ts';
import { targetInput } from './target-input.ts';

const UNIT_MS: Readonly<Record<string, number>> = {
  minute: 60_000,
  minutes: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
};

/** `cron(min hour day-of-month month day-of-week year)` as the five standard fields. */
function standardCron(fields: string): string {
  const [minute, hour, dayOfMonth, month, dayOfWeek = '*'] = fields.trim().split(/\s+/);
  // EventBridge counts the days of the week 1 (Sunday) to 7; standard cron 0 to 6.
  const weekday = dayOfWeek.replace('?', '*').replace(/\d+/g, (d) => String(Number(d) - 1));
  return [minute, hour, dayOfMonth?.replace('?', '*'), month, weekday].join(' ');
}

/** When the schedule fires next after `afterMs`; undefined when it never does. */
export function nextFiring(expression: string, createdMs: number, afterMs: number) {
  const rate = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(expression);
  if (rate !== null) {
    const period = Number(rate[1]) * (UNIT_MS[rate[2] ?? ''] ?? 0);
    return createdMs + (Math.floor((afterMs - createdMs) / period) + 1) * period;
  }
  const cron = /^cron\((.+)\)$/.exec(expression);
  return cron === null ? undefined : cronSchedules.nextFire(standardCron(cron[1] ?? ''), afterMs);
}

export interface ScheduledRulesOptions {
  readonly accountId: string;
  readonly region: string;
  /** When the rules were created: rates count from here. Epoch milliseconds. */
  readonly createdMs: number;
  /** Sends the target its input: to a queue, a function, a bus. */
  readonly deliver: (target: RuleTarget, input: string, rule: RuleDefinition) => void;
}

export class ScheduledRules {
  readonly #rules: readonly RuleDefinition[];
  readonly #options: ScheduledRulesOptions;
  #firedUpTo: number;

  constructor(rules: readonly RuleDefinition[], options: ScheduledRulesOptions) {
    this.#rules = rules.filter((r) => r.enabled && r.scheduleExpression !== undefined);
    this.#options = options;
    this.#firedUpTo = options.createdMs;
  }

  /** Fires, in time order, every firing after the last one fired up to `nowMs`; returns them. */
  advanceTo(nowMs: number): { rule: string; at: number }[] {
    const firings = this.#rules.flatMap((rule) => this.#firings(rule, nowMs));
    firings.sort((a, b) => a.at - b.at || a.rule.name.localeCompare(b.rule.name));
    for (const { rule, at } of firings) this.#fire(rule, at);
    this.#firedUpTo = Math.max(this.#firedUpTo, nowMs);
    return firings.map(({ rule, at }) => ({ rule: rule.name, at }));
  }

  #firings(rule: RuleDefinition, nowMs: number) {
    const firings: { rule: RuleDefinition; at: number }[] = [];
    const expression = rule.scheduleExpression ?? '';
    let at = nextFiring(expression, this.#options.createdMs, this.#firedUpTo);
    while (at !== undefined && at <= nowMs) {
      firings.push({ rule, at });
      at = nextFiring(expression, this.#options.createdMs, at);
    }
    return firings;
  }

  #fire(rule: RuleDefinition, at: number): void {
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: this.#options.accountId,
      time: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region: this.#options.region,
      resources: [rule.arn],
      detail: {},
    };
    for (const target of rule.targets)
      this.#options.deliver(target, targetInput(target, event), rule);
  }
}
