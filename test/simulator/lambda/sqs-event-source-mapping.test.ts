/**
 * The SQS event source mapping's rules, with a function of a few lines in place of a bundle: the
 * event as Lambda shapes it, the maximum concurrency, the batching window, and what is deleted
 * or left for each kind of answer.
 */
import { describe, expect, it } from 'vitest';
import { SqsQueues } from '../../../simulator/aws/sqs/sqs-queues.ts';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import {
  type EventSourceMappingDefinition,
  SqsEventSourceMapping,
  sqsEventSourceMappings,
} from '../../../simulator/lambda/sqs-event-source-mapping.ts';
import { templateResolver } from '../../../simulator/lambda/template-resolver.ts';
import { messagesIn } from './support.ts';

const QUEUE_ARN = 'arn:aws:sqs:eu-west-1:111122223333:Nodesmith-shop-QueuesWork';

function aWorld(overrides: Partial<EventSourceMappingDefinition> = {}) {
  let now = Date.parse('2026-11-27T09:00:00.000Z');
  const queues = new SqsQueues({
    endpointUrl: () => 'http://127.0.0.1:4566',
    region: 'eu-west-1',
    account: '111122223333',
    now: () => now,
  });
  const queue = queues.create('Nodesmith-shop-QueuesWork', { visibilityTimeout: 60 });
  const events: { Records: { messageId: string; body: string }[] }[] = [];
  let answer: (event: (typeof events)[number]) => Promise<unknown> = async () => ({});
  const definition: EventSourceMappingDefinition = {
    logicalId: 'ControllerSqsEventSource',
    functionLogicalId: 'Controller',
    eventSourceArn: QUEUE_ARN,
    batchSize: 10,
    maximumBatchingWindowSeconds: 0,
    maximumConcurrency: undefined,
    reportBatchItemFailures: true,
    enabled: true,
    ...overrides,
  };
  const mapping = new SqsEventSourceMapping(definition, {
    queue,
    now: () => now,
    invoke: (event) => {
      events.push(event as (typeof events)[number]);
      return answer(event as (typeof events)[number]);
    },
  });
  return {
    queue,
    mapping,
    events,
    answerWith: (a: typeof answer) => {
      answer = a;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('an SQS event source mapping', () => {
  it('reads each mapping of the template: batch, window, concurrency, partial responses', () => {
    // Prepare
    const template = {
      Resources: {
        Work: { Type: 'AWS::SQS::Queue', Properties: {} },
        Controller: { Type: 'AWS::Lambda::Function', Properties: {} },
        Mapping: {
          Type: 'AWS::Lambda::EventSourceMapping',
          Properties: {
            BatchSize: 10,
            EventSourceArn: { 'Fn::GetAtt': ['Work', 'Arn'] },
            FunctionName: { Ref: 'Controller' },
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            ScalingConfig: { MaximumConcurrency: 2 },
          },
        },
      },
    };
    const resolve = templateResolver(template, simulatedAccount({ stackName: 'Nodesmith-shop' }));
    // Act
    const mappings = sqsEventSourceMappings(template, resolve);
    // Assess
    expect(mappings).toEqual([
      {
        logicalId: 'Mapping',
        functionLogicalId: 'Controller',
        eventSourceArn: 'arn:aws:sqs:us-east-1:111122223333:Nodesmith-shop-Work',
        batchSize: 10,
        maximumBatchingWindowSeconds: 0,
        maximumConcurrency: 2,
        reportBatchItemFailures: true,
        enabled: true,
      },
    ]);
  });

  it('hands the function the SQS event as Lambda shapes it', async () => {
    // Prepare
    const { queue, mapping, events } = aWorld();
    const id = queue.send('{"source":"schedule","reason":"tick"}');
    // Act
    await mapping.poll();
    // Assess
    expect(events[0]).toEqual({
      Records: [
        {
          messageId: id,
          receiptHandle: expect.any(String),
          body: '{"source":"schedule","reason":"tick"}',
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(Date.parse('2026-11-27T09:00:00.000Z')),
            SenderId: 'AIDASIMULATED',
            ApproximateFirstReceiveTimestamp: String(Date.parse('2026-11-27T09:00:00.000Z')),
          },
          messageAttributes: {},
          md5OfBody: '3369e84b49ab2205addba757e96cca09',
          eventSource: 'aws:sqs',
          eventSourceARN: QUEUE_ARN,
          awsRegion: 'eu-west-1',
        },
      ],
    });
  });

  it('starts no more invocations than its maximum concurrency', async () => {
    // Prepare
    const { queue, mapping, answerWith } = aWorld({ maximumConcurrency: 2, batchSize: 1 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    answerWith(async () => held.then(() => ({})));
    for (const n of [1, 2, 3]) queue.send(`wake ${n}`);
    // Act
    const started = [mapping.poll(), mapping.poll(), mapping.poll()];
    const inFlight = mapping.inFlight;
    release();
    await mapping.settled();
    const afterwards = await mapping.poll();
    // Assess
    expect(started.map((s) => s !== undefined)).toEqual([true, true, false]);
    expect(inFlight).toBe(2);
    expect(afterwards?.deleted).toHaveLength(1);
    expect(messagesIn(queue)).toBe(0);
  });

  it('gathers a batch for its window unless the batch fills first', async () => {
    // Prepare
    const { queue, mapping, events, advance } = aWorld({
      maximumBatchingWindowSeconds: 5,
      batchSize: 3,
    });
    queue.send('first');
    // Act
    const atOnce = mapping.poll();
    advance(2_000);
    queue.send('second');
    const withinTheWindow = mapping.poll();
    advance(3_000);
    const windowOver = await mapping.poll();
    for (const n of [1, 2, 3]) queue.send(`burst ${n}`);
    const full = await mapping.poll();
    // Assess
    expect([atOnce, withinTheWindow]).toEqual([undefined, undefined]);
    expect(windowOver?.deleted).toHaveLength(2);
    expect(full?.deleted).toHaveLength(3);
    expect(events.map((e) => e.Records.map((r) => r.body))).toEqual([
      ['first', 'second'],
      ['burst 1', 'burst 2', 'burst 3'],
    ]);
  });

  it('leaves the whole batch when the invocation fails or its response names a stranger', async () => {
    // Prepare
    const { queue, mapping, answerWith, advance } = aWorld();
    const ids = [queue.send('a'), queue.send('b')];
    answerWith(async () => {
      throw new Error('Task timed out after 180.00 seconds');
    });
    // Act
    const failed = await mapping.poll();
    advance(60_000);
    answerWith(async () => ({ batchItemFailures: [{ itemIdentifier: 'someone-else' }] }));
    const strange = await mapping.poll();
    advance(60_000);
    answerWith(async () => ({ batchItemFailures: [{ itemIdentifier: ids[1] }] }));
    const partial = await mapping.poll();
    // Assess
    expect(failed).toEqual({ deleted: [], left: ids, error: expect.any(Error) });
    expect(strange).toEqual({ deleted: [], left: ids });
    expect(partial).toEqual({ deleted: [ids[0]], left: [ids[1]] });
    expect(messagesIn(queue)).toBe(1);
  });

  it('deletes the whole batch on success when partial responses are not turned on', async () => {
    // Prepare
    const { queue, mapping, answerWith } = aWorld({ reportBatchItemFailures: false });
    const ids = [queue.send('a'), queue.send('b')];
    answerWith(async (event) => ({
      batchItemFailures: [{ itemIdentifier: event.Records[0]?.messageId }],
    }));
    // Act
    const outcome = await mapping.poll();
    // Assess
    expect(outcome).toEqual({ deleted: ids, left: [] });
    expect(messagesIn(queue)).toBe(0);
  });
});
