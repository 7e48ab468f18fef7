/** The simulated SQS through the unchanged SDK client and the SQS waker, on simulated time. */
import { createHash } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  MessageNotInflight,
  QueueDoesNotExist,
  QueueNameExists,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SqsWaker } from '../../../../functions/adapters/sqs/sqs-waker.ts';
import { SqsQueues } from '../../../../simulator/aws/sqs/sqs-queues.ts';
import { sqsService } from '../../../../simulator/aws/sqs/sqs-service.ts';
import { type AwsTestEndpoint, startAwsTestEndpoint } from '../../../support/aws-test-endpoint.ts';

const ACCOUNT = '111122223333';
let now = Date.parse('2026-11-27T08:00:00Z');
let url = '';
let queues: SqsQueues;
let endpoint: AwsTestEndpoint;
let sqs: SQSClient;

beforeAll(async () => {
  queues = new SqsQueues({
    endpointUrl: () => url,
    region: 'us-east-1',
    account: ACCOUNT,
    now: () => now,
  });
  endpoint = await startAwsTestEndpoint([sqsService(queues)]);
  url = endpoint.url;
  sqs = new SQSClient(endpoint.clientConfig);
});

afterAll(async () => {
  sqs.destroy();
  await endpoint.close();
});

let sequence = 0;
let name = '';
beforeEach(() => {
  name = `queue-${++sequence}`;
});

async function receive(queueUrl: string, options: { VisibilityTimeout?: number } = {}) {
  const output = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      MessageSystemAttributeNames: ['All'],
      ...options,
    }),
  );
  return output.Messages ?? [];
}

describe('the simulated SQS', () => {
  it('queues what the SQS waker sends, and the polled queue receives it as Lambda would', async () => {
    // Prepare
    const queue = queues.create(name);
    const waker = new SqsWaker(sqs, queue.settings.url);

    // Act
    await waker.wake({ source: 'audit', reason: '1 pod created' });
    const received = queue.receive(10);

    // Assess
    expect(queue.settings.url).toBe(`${url}/${ACCOUNT}/${name}`);
    expect(received).toEqual([
      expect.objectContaining({
        body: '{"source":"audit","reason":"1 pod created"}',
        md5OfBody: createHash('md5')
          .update('{"source":"audit","reason":"1 pod created"}')
          .digest('hex'),
        attributes: expect.objectContaining({
          ApproximateReceiveCount: '1',
          SentTimestamp: String(now),
        }),
      }),
    ]);
  });

  it('creates a queue with its attributes, finds its URL and reports them with its counts', async () => {
    // Prepare
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: '120', DelaySeconds: '5', MessageRetentionPeriod: '3600' },
      }),
    );

    // Act
    const found = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
    await sqs.send(new SendMessageCommand({ QueueUrl: found.QueueUrl, MessageBody: 'one' }));
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: found.QueueUrl, AttributeNames: ['All'] }),
    );

    // Assess
    expect(found.QueueUrl).toBe(created.QueueUrl);
    expect(attributes.Attributes).toMatchObject({
      QueueArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`,
      VisibilityTimeout: '120',
      DelaySeconds: '5',
      MessageRetentionPeriod: '3600',
      ApproximateNumberOfMessages: '0',
      ApproximateNumberOfMessagesDelayed: '1',
    });
  });

  it('holds a delayed message back until its delay has passed on simulated time', async () => {
    // Prepare
    const queueUrl = queues.create(name).settings.url;
    const sent = await sqs.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'later', DelaySeconds: 60 }),
    );

    // Act
    const early = await receive(queueUrl);
    now += 60_000;
    const due = await receive(queueUrl);

    // Assess
    expect(early).toEqual([]);
    expect(due.map((m) => [m.MessageId, m.Body])).toEqual([[sent.MessageId, 'later']]);
  });

  it('hides a received message for the visibility timeout, then hands it out again, counted', async () => {
    // Prepare
    const queueUrl = queues.create(name, { visibilityTimeout: 30 }).settings.url;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'work' }));

    // Act
    const first = await receive(queueUrl);
    const hidden = await receive(queueUrl);
    now += 30_000;
    const again = await receive(queueUrl);

    // Assess
    expect(first.map((m) => m.Attributes?.ApproximateReceiveCount)).toEqual(['1']);
    expect(hidden).toEqual([]);
    expect(again.map((m) => m.Attributes?.ApproximateReceiveCount)).toEqual(['2']);
    expect(again[0]?.ReceiptHandle).not.toBe(first[0]?.ReceiptHandle);
  });

  it('makes a message visible at once when its visibility is changed to zero, and deletes it', async () => {
    // Prepare
    const queueUrl = queues.create(name).settings.url;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'work' }));
    const [first] = await receive(queueUrl, { VisibilityTimeout: 300 });

    // Act
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: first?.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    const [second] = await receive(queueUrl);
    await sqs.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: second?.ReceiptHandle }),
    );
    now += 3600_000;
    const afterDelete = await receive(queueUrl);

    // Assess
    expect(second?.Body).toBe('work');
    expect(afterDelete).toEqual([]);
  });

  it('moves a message received more than maxReceiveCount times to the dead-letter queue', async () => {
    // Prepare
    const deadLetters = queues.create(`${name}-dlq`);
    const queue = queues.create(name, {
      visibilityTimeout: 10,
      redrivePolicy: { deadLetterTargetArn: deadLetters.arn, maxReceiveCount: 2 },
    });
    const id = queue.send('poison');

    // Act
    const receives = [];
    for (let i = 0; i < 3; i++) {
      receives.push(queue.receive(10).length);
      now += 10_000;
    }
    const dead = deadLetters.receive(10);

    // Assess
    expect(receives).toEqual([1, 1, 0]);
    expect(dead.map((m) => [m.messageId, m.body])).toEqual([[id, 'poison']]);
  });

  it('drops messages older than the retention period', () => {
    // Prepare
    const queue = queues.create(name, { messageRetentionPeriod: 60 });
    queue.send('stale');

    // Act
    now += 61_000;
    const received = queue.receive(10);

    // Assess
    expect(received).toEqual([]);
  });

  it('answers with the modelled errors: no such queue, a name taken, a message not in flight', async () => {
    // Prepare
    const queueUrl = queues.create(name).settings.url;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'work' }));
    const [message] = await receive(queueUrl, { VisibilityTimeout: 1 });
    now += 1000;
    const change = new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: message?.ReceiptHandle,
      VisibilityTimeout: 10,
    });

    // Act
    const failures = await Promise.all(
      [
        new GetQueueUrlCommand({ QueueName: `${name}-absent` }),
        new SendMessageCommand({ QueueUrl: `${url}/${ACCOUNT}/${name}-absent`, MessageBody: 'x' }),
        new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '5' } }),
        change,
      ].map((command) => sqs.send(command as never).catch((err: unknown) => err)),
    );

    // Assess
    expect(failures.map((err) => (err as Error).constructor)).toEqual([
      QueueDoesNotExist,
      QueueDoesNotExist,
      QueueNameExists,
      MessageNotInflight,
    ]);
  });
});
