/**
 * The template's EventBridge rules as the simulated EventBridge takes them, the tick fired on
 * the simulated clock into the work queue, and what a target receives for an event.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverToQueues } from '../../../simulator/aws/eventbridge/queue-targets.ts';
import {
  type AwsEvent,
  SimulatedEventBridge,
} from '../../../simulator/aws/eventbridge/simulated-event-bridge.ts';
import { SqsQueues } from '../../../simulator/aws/sqs/sqs-queues.ts';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import { eventRules, type RuleDefinition } from '../../../simulator/lambda/event-rules.ts';
import { nextFiring, ScheduledRules } from '../../../simulator/lambda/scheduled-rules.ts';
import { targetInput } from '../../../simulator/lambda/target-input.ts';
import { templateResolver } from '../../../simulator/lambda/template-resolver.ts';
import { synthesizedForTests } from '../../support/synthesized-stack.ts';
import { SPOT_WARNING } from './support.ts';

const START = Date.parse('2026-11-27T09:00:00.000Z');

function templateRules(): RuleDefinition[] {
  const { template, stackName } = synthesizedForTests();
  const resolve = templateResolver(template, simulatedAccount({ stackName }));
  return eventRules(template, resolve);
}

/** The logical id in a resolved name, less its hash: `Nodesmith-shop-RulesTickE25710CC` → `RulesTick`. */
const logical = (name: string) => name.replace(/^.*Nodesmith-shop-/, '').slice(0, -8);

// Synthesized once for every test file, or read back from the cache.
beforeAll(() => {
  synthesizedForTests();
}, 180_000);

describe('the template’s EventBridge rules', () => {
  it('are the five interruption patterns to the interruption queue, and the tick to the work queue', () => {
    // Act
    const rules = templateRules();
    // Assess
    expect(rules.map((r) => r.arn)).toEqual(
      rules.map((r) => `arn:aws:events:us-east-1:111122223333:rule/${r.name}`),
    );
    const summary = rules.map((r) => ({
      name: logical(r.name),
      eventBusName: r.eventBusName,
      enabled: r.enabled,
      on: r.eventPattern ?? r.scheduleExpression,
      targets: r.targets.map((t) => ({
        ...t,
        arn: logical(t.arn),
        deadLetterArn: logical(t.deadLetterArn ?? ''),
      })),
    }));
    const toInterruptions = [
      { id: 'Target0', arn: 'QueuesInterruption', deadLetterArn: 'QueuesInterruptionDlq' },
    ];
    expect(summary).toEqual([
      {
        name: 'RulesSpotInterruption',
        eventBusName: 'default',
        enabled: true,
        on: { source: ['aws.ec2'], 'detail-type': ['EC2 Spot Instance Interruption Warning'] },
        targets: toInterruptions,
      },
      {
        name: 'RulesCapacityReservationInterruption',
        eventBusName: 'default',
        enabled: true,
        on: {
          source: ['aws.ec2'],
          'detail-type': ['EC2 Capacity Reservation Instance Interruption Warning'],
        },
        targets: toInterruptions,
      },
      {
        name: 'RulesRebalanceRecommendation',
        eventBusName: 'default',
        enabled: true,
        on: { source: ['aws.ec2'], 'detail-type': ['EC2 Instance Rebalance Recommendation'] },
        targets: toInterruptions,
      },
      {
        name: 'RulesInstanceStateChange',
        eventBusName: 'default',
        enabled: true,
        on: {
          source: ['aws.ec2'],
          'detail-type': ['EC2 Instance State-change Notification'],
          detail: { state: ['stopping', 'stopped', 'shutting-down', 'terminated'] },
        },
        targets: toInterruptions,
      },
      {
        name: 'RulesScheduledChange',
        eventBusName: 'default',
        enabled: true,
        on: {
          source: ['aws.health'],
          'detail-type': ['AWS Health Event'],
          detail: { service: ['EC2'], eventTypeCategory: ['scheduledChange'] },
        },
        targets: toInterruptions,
      },
      {
        name: 'RulesTick',
        eventBusName: 'default',
        enabled: true,
        on: 'rate(1 minute)',
        targets: [
          {
            id: 'Target0',
            arn: 'QueuesWork',
            input: '{"source":"schedule","reason":"tick"}',
            deadLetterArn: 'QueuesWorkDlq',
          },
        ],
      },
    ]);
  });

  it('fire the tick every minute of simulated time into the work queue', () => {
    // Prepare
    const rules = templateRules();
    const workArn = rules.find((r) => r.scheduleExpression !== undefined)?.targets[0]?.arn ?? '';
    const work = new SqsQueues({
      endpointUrl: () => 'http://127.0.0.1:4566',
      region: 'us-east-1',
      account: '111122223333',
      now: () => START,
    }).create(workArn.split(':')[5] ?? '', { visibilityTimeout: 1080 });
    const schedule = new ScheduledRules(rules, {
      accountId: '111122223333',
      region: 'us-east-1',
      createdMs: START,
      deliver: (target, input) => {
        if (target.arn === work.arn) work.send(input);
      },
    });
    // Act
    const withinTheFirstMinute = schedule.advanceTo(START + 59_000);
    const twoMinutesOn = schedule.advanceTo(START + 150_000);
    const again = schedule.advanceTo(START + 150_000);
    // Assess
    expect(withinTheFirstMinute).toEqual([]);
    expect(twoMinutesOn.map((f) => [logical(f.rule), f.at - START])).toEqual([
      ['RulesTick', 60_000],
      ['RulesTick', 120_000],
    ]);
    expect(again).toEqual([]);
    expect(work.receive(10).map((m) => m.body)).toEqual([
      '{"source":"schedule","reason":"tick"}',
      '{"source":"schedule","reason":"tick"}',
    ]);
  });
});

describe('the template’s rules on the simulated EventBridge', () => {
  it('are put as they are, and route a spot warning and the tick to their queues', () => {
    // Prepare
    let now = START;
    const queues = new SqsQueues({
      endpointUrl: () => 'http://127.0.0.1:4566',
      region: 'us-east-1',
      account: '111122223333',
      now: () => now,
    });
    const rules = templateRules();
    for (const arn of new Set(rules.flatMap((r) => r.targets.map((t) => t.arn)))) {
      queues.create(arn.split(':')[5] ?? '');
    }
    const events = new SimulatedEventBridge({
      region: 'us-east-1',
      account: '111122223333',
      now: () => now,
      deliver: deliverToQueues(queues),
    });
    // Act
    for (const rule of rules) events.putRule(rule);
    events.emit(SPOT_WARNING as AwsEvent);
    now += 60_000;
    events.fireDueSchedules();
    // Assess
    const received = (name: string) => {
      const arn = rules.find((r) => logical(r.name) === name)?.targets[0]?.arn ?? '';
      return queues
        .byArn(arn)
        ?.receive(10)
        .map((m) => m.body);
    };
    expect(received('RulesSpotInterruption')).toEqual([JSON.stringify(SPOT_WARNING)]);
    expect(received('RulesTick')).toEqual(['{"source":"schedule","reason":"tick"}']);
  });
});

describe('a schedule expression', () => {
  it('fires a rate every period from its creation, and a cron at the UTC times it names', () => {
    // Act
    const rate = nextFiring('rate(5 minutes)', START, START + 7 * 60_000);
    const monday = nextFiring('cron(0 12 ? * 2 *)', START, START);
    const firstOfMonth = nextFiring('cron(30 6 1 * ? *)', START, START);
    // Assess
    expect(new Date(rate ?? 0).toISOString()).toBe('2026-11-27T09:10:00.000Z');
    expect(new Date(monday ?? 0).toISOString()).toBe('2026-11-30T12:00:00.000Z');
    expect(new Date(firstOfMonth ?? 0).toISOString()).toBe('2026-12-01T06:30:00.000Z');
  });
});

describe('a rule target’s input', () => {
  it('is its constant input, the part its path names, its transformed template, or the event', () => {
    // Prepare
    const arn = 'arn:aws:sqs:us-east-1:111122223333:Nodesmith-shop-QueuesInterruption';
    const transformer = {
      inputPathsMap: {
        instance: '$.detail.instance-id',
        resources: '$.resources',
        none: '$.detail.none',
      },
      inputTemplate:
        '{"instance": "<instance>", "resources": <resources>, "none": <none>, "kept": "<kept>"}',
    };
    // Act
    const inputs = [
      targetInput({ id: 'a', arn, input: '{"reason":"tick"}' }, SPOT_WARNING),
      targetInput({ id: 'b', arn, inputPath: '$.detail' }, SPOT_WARNING),
      targetInput({ id: 'c', arn, inputTransformer: transformer }, SPOT_WARNING),
      targetInput({ id: 'd', arn }, SPOT_WARNING),
    ];
    // Assess
    expect(inputs).toEqual([
      '{"reason":"tick"}',
      '{"instance-id":"i-0a1b2c3d4e5f60001","instance-action":"terminate"}',
      '{"instance": "i-0a1b2c3d4e5f60001", "resources": ["arn:aws:ec2:us-east-1a:instance/i-0a1b2c3d4e5f60001"], "none": null, "kept": "<kept>"}',
      JSON.stringify(SPOT_WARNING),
    ]);
  });
});
