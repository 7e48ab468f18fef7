/**
 * Wakes go to the controller's SQS work queue (docs/design.md §3.1). SQS delays a message by at
 * most 900 seconds; the SDK retries throttling itself, and what still fails for rate becomes the
 * port's ThrottledError.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ThrottledError } from '../../ports/errors.ts';
import type { Wake, Waker } from '../../ports/wake.ts';

const THROTTLING = new Set(['ThrottlingException', 'RequestThrottled', 'KmsThrottled']);

export class SqsWaker implements Waker {
  readonly #client: Pick<SQSClient, 'send'>;
  readonly #queueUrl: string;

  constructor(client: Pick<SQSClient, 'send'>, queueUrl: string) {
    this.#client = client;
    this.#queueUrl = queueUrl;
  }

  async wake(wake: Wake, delaySeconds = 0): Promise<void> {
    const command = new SendMessageCommand({
      QueueUrl: this.#queueUrl,
      MessageBody: JSON.stringify({ source: wake.source, reason: wake.reason }),
      DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
    });
    try {
      await this.#client.send(command);
    } catch (err) {
      const name = (err as { name?: string }).name ?? '';
      if (THROTTLING.has(name)) {
        throw new ThrottledError(`waking the controller: ${name}`, { cause: err });
      }
      throw err;
    }
  }
}
