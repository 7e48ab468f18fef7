/**
 * The account's EventBridge on simulated time: named buses (`default` always there), rules that
 * match the events on their bus by event pattern (event-pattern.ts) or fire on a `rate(...)`
 * schedule, and targets the matched events go to. Delivering is the world's business: the
 * model is given one callback and calls it with each target and the body EventBridge would send
 * it — the event as JSON, or the target's constant `Input` (`RuleTargetInput.fromObject`).
 */
import { type EventPattern, matchesEventPattern, validateEventPattern } from './event-pattern.ts';

/** An event as EventBridge delivers it (EventBridge user guide, "Events"). */
export interface AwsEvent {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: string;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: unknown;
}

export interface RuleTarget {
  readonly id: string;
  readonly arn: string;
  /** A constant body sent instead of the event, as the template's `Input`. */
  readonly input?: string;
}

export interface RuleDefinition {
  readonly name: string;
  /** @default 'default' */
  readonly eventBusName?: string;
  readonly eventPattern?: EventPattern;
  /** `rate(5 minutes)`, as `Schedule.rate` writes it; schedules live on the default bus. */
  readonly scheduleExpression?: string;
  readonly targets: readonly RuleTarget[];
}

export type EventDelivery = (target: RuleTarget, body: string, rule: RuleDefinition) => void;

export interface SimulatedEventBridgeOptions {
  readonly region: string;
  readonly account: string;
  readonly now: () => number;
  readonly deliver: EventDelivery;
}

/** An event put on a bus, before EventBridge gives it an id, account and region. */
export interface PutEvent {
  readonly source: string;
  readonly detailType: string;
  readonly detail: unknown;
  readonly resources?: readonly string[];
  readonly time?: number;
  readonly eventBusName?: string;
}

interface Schedule {
  readonly rule: RuleDefinition;
  readonly periodMs: number;
  nextAt: number;
}

const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const UNIT_MS: Readonly<Record<string, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** The period of a `rate(...)` expression; cron expressions are not simulated. */
function ratePeriodMs(expression: string): number {
  const match = RATE.exec(expression);
  if (match === null) throw new Error(`only rate(...) schedules are simulated: ${expression}`);
  const [, count = '', unit = ''] = match;
  return Number(count) * (UNIT_MS[unit.replace(/s$/, '')] ?? 0);
}

/** A bus named by name or by ARN (`arn:aws:events:<region>:<account>:event-bus/<name>`). */
export function busName(nameOrArn: string | undefined): string {
  if (nameOrArn === undefined || nameOrArn === '') return 'default';
  return nameOrArn.startsWith('arn:') ? (nameOrArn.split('/').pop() ?? '') : nameOrArn;
}

/** Event times as EventBridge writes them: ISO 8601 to the second. */
function eventTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class SimulatedEventBridge {
  readonly #options: SimulatedEventBridgeOptions;
  readonly #buses = new Set(['default']);
  readonly #rules = new Map<string, RuleDefinition>();
  readonly #schedules: Schedule[] = [];
  #events = 0;

  constructor(options: SimulatedEventBridgeOptions) {
    this.#options = options;
  }

  createEventBus(name: string): void {
    this.#buses.add(name);
  }

  hasEventBus(nameOrArn: string | undefined): boolean {
    return this.#buses.has(busName(nameOrArn));
  }

  /**
   * Adds or replaces a rule; a scheduled rule first fires one period from now. Throws
   * InvalidEventPatternError for a pattern PutRule would refuse.
   */
  putRule(rule: RuleDefinition): void {
    const bus = busName(rule.eventBusName);
    if (!this.#buses.has(bus)) throw new Error(`event bus ${bus} does not exist`);
    if (rule.eventPattern !== undefined) validateEventPattern(rule.eventPattern);
    this.#rules.set(`${bus}/${rule.name}`, rule);
    if (rule.scheduleExpression !== undefined) {
      const periodMs = ratePeriodMs(rule.scheduleExpression);
      this.#schedules.push({ rule, periodMs, nextAt: this.#options.now() + periodMs });
    }
  }

  /** Puts an application's event on its bus (PutEvents) and delivers it; returns it. */
  put(entry: PutEvent): AwsEvent {
    const event = this.#event(entry.source, entry.detailType, entry.detail, {
      resources: entry.resources ?? [],
      time: entry.time,
    });
    this.#route(busName(entry.eventBusName), event);
    return event;
  }

  /** An event AWS itself sends (an EC2 spot interruption warning, a state change) to the default bus. */
  emit(event: AwsEvent): void {
    this.#route('default', event);
  }

  /**
   * Fires every scheduled rule whose time has come, once each however long ago that was: the
   * simulation moves time in jumps, and ticks missed in a jump are worth no more than one.
   */
  fireDueSchedules(): number {
    const now = this.#options.now();
    let fired = 0;
    for (const schedule of this.#schedules) {
      if (schedule.nextAt > now) continue;
      const missed = Math.floor((now - schedule.nextAt) / schedule.periodMs) + 1;
      schedule.nextAt += missed * schedule.periodMs;
      const { region, account } = this.#options;
      const ruleArn = `arn:aws:events:${region}:${account}:rule/${schedule.rule.name}`;
      const event = this.#event('aws.events', 'Scheduled Event', {}, { resources: [ruleArn] });
      this.#deliver(schedule.rule, event);
      fired += 1;
    }
    return fired;
  }

  #event(
    source: string,
    detailType: string,
    detail: unknown,
    extra: { resources: readonly string[]; time?: number },
  ): AwsEvent {
    const { region, account, now } = this.#options;
    return {
      version: '0',
      id: `00000000-0000-4000-b000-${String(++this.#events).padStart(12, '0')}`,
      'detail-type': detailType,
      source,
      account,
      time: eventTime(extra.time ?? now()),
      region,
      resources: extra.resources,
      detail,
    };
  }

  #route(bus: string, event: AwsEvent): void {
    for (const rule of this.#rules.values()) {
      if (busName(rule.eventBusName) !== bus || rule.eventPattern === undefined) continue;
      if (matchesEventPattern(rule.eventPattern, event)) this.#deliver(rule, event);
    }
  }

  #deliver(rule: RuleDefinition, event: AwsEvent): void {
    for (const target of rule.targets) {
      this.#options.deliver(target, target.input ?? JSON.stringify(event), rule);
    }
  }
}
