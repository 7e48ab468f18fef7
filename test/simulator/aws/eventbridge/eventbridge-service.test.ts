/**
 * The simulated EventBridge through the unchanged SDK client and the decision publisher, with the
 * stack's own wake rules as synthesized, delivering to the simulated SQS queues.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { CfnRule } from 'aws-cdk-lib/aws-events';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeDecisionPublisher } from '../../../../functions/adapters/eventbridge/eventbridge-decision-publisher.ts';
import type { Decision, LimitReached } from '../../../../functions/ports/decisions.ts';
import { WakeQueues } from '../../../../lib/queues.ts';
import { WakeRules } from '../../../../lib/wake-rules.ts';
import type { EventPattern } from '../../../../simulator/aws/eventbridge/event-pattern.ts';
import { eventBridgeService } from '../../../../simulator/aws/eventbridge/eventbridge-service.ts';
import { deliverToQueues } from '../../../../simulator/aws/eventbridge/queue-targets.ts';
import {
  type AwsEvent,
  type RuleDefinition,
  SimulatedEventBridge,
} from '../../../../simulator/aws/eventbridge/simulated-event-bridge.ts';
import { SqsQueues } from '../../../../simulator/aws/sqs/sqs-queues.ts';
import { sqsService } from '../../../../simulator/aws/sqs/sqs-service.ts';
import type { SimulatedInstance } from '../../../../simulator/cloud/simulated-instance.ts';
import { spotInterruptionWarning } from '../../../../simulator/cloud/spot-interruption.ts';
import { type AwsTestEndpoint, startAwsTestEndpoint } from '../../../support/aws-test-endpoint.ts';

const REGION = 'us-east-1';
const ACCOUNT = '111122223333';
const TICK_MINUTES = 5;

interface SynthesizedRule {
  readonly eventPattern?: EventPattern;
  readonly scheduleExpression?: string;
  readonly targets: readonly {
    id: string;
    arn: { 'Fn::GetAtt': [string, string] };
    input?: string;
  }[];
}

/**
 * The wake rules' properties as the template writes them (tokens resolved, `detail-type`
 * spelled as CloudFormation has it), each target a queue named by its logical id. Resolving the
 * rules alone spares the seconds a whole synthesis takes.
 */
function synthesizedWakeRules(): Record<string, SynthesizedRule> {
  const stack = new Stack(new App(), 'Wakes');
  const queues = new WakeQueues(stack, 'Queues', {
    workVisibilityTimeout: Duration.minutes(6),
    interruptionVisibilityTimeout: Duration.seconds(30),
  });
  new WakeRules(stack, 'Rules', { queues, tickMinutes: TICK_MINUTES });
  const rules = stack.node.findAll().filter((c): c is CfnRule => c instanceof CfnRule);
  return Object.fromEntries(
    rules.map((rule) => [
      stack.getLogicalId(rule),
      stack.resolve({
        eventPattern: rule.eventPattern,
        scheduleExpression: rule.scheduleExpression,
        targets: rule.targets,
      }),
    ]),
  );
}

let now = Date.parse('2026-11-27T08:00:00Z');
let url = '';
let queues: SqsQueues;
let events: SimulatedEventBridge;
let endpoint: AwsTestEndpoint;
let client: EventBridgeClient;
let rules: Record<string, SynthesizedRule>;

beforeAll(async () => {
  rules = synthesizedWakeRules();
});

beforeEach(async () => {
  queues = new SqsQueues({
    endpointUrl: () => url,
    region: REGION,
    account: ACCOUNT,
    now: () => now,
  });
  events = new SimulatedEventBridge({
    region: REGION,
    account: ACCOUNT,
    now: () => now,
    deliver: deliverToQueues(queues),
  });
  endpoint = await startAwsTestEndpoint([sqsService(queues), eventBridgeService(events)]);
  url = endpoint.url;
  client = new EventBridgeClient(endpoint.clientConfig);
  for (const [name, rule] of Object.entries(rules)) {
    const { eventPattern, scheduleExpression } = rule;
    const targets = rule.targets.map((t) => ({
      id: t.id,
      arn: queues.create(t.arn['Fn::GetAtt'][0]).arn,
      input: t.input,
    }));
    events.putRule({ name, eventPattern, scheduleExpression, targets });
  }
});

afterEach(async () => {
  client.destroy();
  await endpoint.close();
});

/** The bodies the wake rules delivered to the queue of this logical-id prefix. */
function delivered(queuePrefix: 'QueuesInterruption' | 'QueuesWork'): unknown[] {
  const queue = Object.values(rules)
    .flatMap((r) => r.targets.map((t) => t.arn['Fn::GetAtt'][0]))
    .find((id) => id.startsWith(queuePrefix) && !id.includes('Dlq'));
  return (queues.byName(queue ?? '')?.receive(10) ?? []).map((m) => JSON.parse(m.body));
}

function awsEvent(detailType: string, source: string, detail: unknown): AwsEvent {
  return {
    version: '0',
    id: 'e-1',
    'detail-type': detailType,
    source,
    account: ACCOUNT,
    time: '2026-11-27T08:00:00Z',
    region: REGION,
    resources: [],
    detail,
  };
}

const LAUNCHED: Decision = {
  kind: 'Launched',
  time: '2026-11-27T08:00:00.000Z',
  nodeClaim: 'default-abcde',
  nodePool: 'default',
  instanceType: 'm5.large',
  zone: 'us-east-1a',
  capacityType: 'on-demand',
  pricePerHour: 0.096,
  reason: '3 pods unschedulable',
};

const LIMIT_REACHED: LimitReached = {
  kind: 'LimitReached',
  time: '2026-11-27T08:00:00.000Z',
  limit: 'cpu',
  message: 'the cluster would exceed its cpu limit',
  pods: 2,
};

const SPOT_INSTANCE = { instanceId: 'i-0123456789abcdef0' } as SimulatedInstance;

describe('the simulated EventBridge', () => {
  it("sends the decision publisher's events to a rule's SQS target as the event JSON", async () => {
    // Prepare
    events.createEventBus('nodesmith-shop');
    const decisions = queues.create('decisions');
    const rule: RuleDefinition = {
      name: 'decisions',
      eventBusName: 'nodesmith-shop',
      eventPattern: { source: ['nodesmith'], 'detail-type': [{ prefix: 'NodeClaim ' }] },
      targets: [{ id: 'queue', arn: decisions.arn }],
    };
    events.putRule(rule);
    const warnings: unknown[] = [];
    const publisher = new EventBridgeDecisionPublisher({
      client,
      eventBusName: 'nodesmith-shop',
      clusterName: 'shop',
      logger: { warn: (message, fields) => warnings.push({ message, fields }) },
    });

    // Act
    await publisher.publish([LIMIT_REACHED, LAUNCHED]);
    const bodies = decisions.receive(10).map((m) => JSON.parse(m.body));

    // Assess
    expect(warnings).toEqual([]);
    expect(bodies).toEqual([
      expect.objectContaining({
        version: '0',
        source: 'nodesmith',
        'detail-type': 'NodeClaim Launched',
        account: ACCOUNT,
        region: REGION,
        time: '2026-11-27T08:00:00Z',
        detail: expect.objectContaining({
          cluster: 'shop',
          nodeClaim: 'default-abcde',
          version: 1,
        }),
      }),
    ]);
  });

  it("routes a spot interruption warning to the interruption queue by the stack's own rule", () => {
    // Prepare
    const warning = spotInterruptionWarning(SPOT_INSTANCE, REGION, new Date(now), 1);

    // Act
    events.emit(warning);

    // Assess
    expect(delivered('QueuesInterruption')).toEqual([warning]);
  });

  it('routes rebalance recommendations, going state changes and EC2 scheduled changes, and nothing else', () => {
    // Prepare
    const wanted = [
      awsEvent('EC2 Instance Rebalance Recommendation', 'aws.ec2', { 'instance-id': 'i-1' }),
      awsEvent('EC2 Instance State-change Notification', 'aws.ec2', {
        'instance-id': 'i-1',
        state: 'stopping',
      }),
      awsEvent('EC2 Instance State-change Notification', 'aws.ec2', {
        'instance-id': 'i-1',
        state: 'terminated',
      }),
      awsEvent('AWS Health Event', 'aws.health', {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
      }),
    ];
    const unwanted = [
      awsEvent('EC2 Instance State-change Notification', 'aws.ec2', {
        'instance-id': 'i-1',
        state: 'running',
      }),
      awsEvent('AWS Health Event', 'aws.health', {
        service: 'RDS',
        eventTypeCategory: 'scheduledChange',
      }),
      awsEvent('AWS Health Event', 'aws.health', { service: 'EC2', eventTypeCategory: 'issue' }),
      awsEvent('EC2 Spot Instance Interruption Warning', 'aws.s3', {}),
    ];

    // Act
    for (const event of [...wanted, ...unwanted]) events.emit(event);

    // Assess
    expect(delivered('QueuesInterruption')).toEqual(wanted);
  });

  it("sends the tick's constant input to the work queue once the schedule's period has passed", () => {
    // Prepare
    const early = events.fireDueSchedules();
    const beforeTick = delivered('QueuesWork');

    // Act
    now += TICK_MINUTES * 60_000;
    const fired = events.fireDueSchedules();

    // Assess
    expect([early, beforeTick]).toEqual([0, []]);
    expect(fired).toBe(1);
    expect(delivered('QueuesWork')).toEqual([{ source: 'schedule', reason: 'tick' }]);
  });

  it('refuses entries one by one: a detail that is not a JSON object, a bus that does not exist', async () => {
    // Prepare
    const entries = [
      { Source: 'nodesmith', DetailType: 'NodeClaim Launched', Detail: '{"ok":true}' },
      { Source: 'nodesmith', DetailType: 'NodeClaim Launched', Detail: 'not json' },
      {
        Source: 'nodesmith',
        DetailType: 'NodeClaim Launched',
        Detail: '{}',
        EventBusName: 'absent',
      },
    ];

    // Act
    const output = await client.send(new PutEventsCommand({ Entries: entries }));

    // Assess
    expect(output.FailedEntryCount).toBe(2);
    expect(output.Entries?.map((e) => e.ErrorCode ?? 'accepted')).toEqual([
      'accepted',
      'MalformedDetail',
      'ResourceNotFoundException',
    ]);
  });
});
