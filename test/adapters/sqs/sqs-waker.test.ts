/** Wakes as SQS messages on the work queue, through the real SDK client (mocked transport). */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqsWaker } from '../../../functions/adapters/sqs/sqs-waker.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';

const QUEUE = 'https://sqs.us-east-1.amazonaws.com/111122223333/nodesmith-work';
const sqs = mockClient(SQSClient);

afterEach(() => sqs.reset());

// The mock stubs the client's class; the next file in this worker needs the real one.

afterAll(() => sqs.restore());

describe('the SQS waker', () => {
  it('sends the wake as the message body with its delay, kept within what SQS allows', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    const waker = new SqsWaker(new SQSClient({ region: 'us-east-1' }), QUEUE);
    await waker.wake({ source: 'controller', reason: '3 node claims in flight' }, 10);
    await waker.wake({ source: 'audit', reason: '1 pod created' });
    await waker.wake({ source: 'controller', reason: 'later' }, 3600);
    const inputs = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(inputs).toEqual([
      {
        QueueUrl: QUEUE,
        MessageBody: '{"source":"controller","reason":"3 node claims in flight"}',
        DelaySeconds: 10,
      },
      {
        QueueUrl: QUEUE,
        MessageBody: '{"source":"audit","reason":"1 pod created"}',
        DelaySeconds: 0,
      },
      {
        QueueUrl: QUEUE,
        MessageBody: '{"source":"controller","reason":"later"}',
        DelaySeconds: 900,
      },
    ]);
  });

  it('turns throttling into ThrottledError and passes other failures through', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'RequestThrottled' });
    sqs.on(SendMessageCommand).rejectsOnce(throttled).rejectsOnce(new Error('socket hang up'));
    const waker = new SqsWaker(new SQSClient({ region: 'us-east-1', maxAttempts: 1 }), QUEUE);
    const first = waker.wake({ source: 'audit', reason: 'x' });
    await expect(first).rejects.toBeInstanceOf(ThrottledError);
    await expect(first).rejects.toMatchObject({ cause: throttled });
    await expect(waker.wake({ source: 'audit', reason: 'x' })).rejects.toThrow('socket hang up');
  });
});
