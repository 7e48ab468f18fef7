/**
 * A queue as Lambda's event source mapping polls it, in memory, for the Lambda runtime's tests
 * until the simulated SQS service holds queues of its own: what it hands out stays invisible for
 * the visibility timeout, what is deleted is gone, and a message received `maxReceiveCount`
 * times moves to the dead-letter queue on its next receive, as SQS's redrive policy moves it.
 */
import { createHash } from 'node:crypto';
import type { PolledQueue, ReceivedMessage } from '../../simulator/aws/aws-service.ts';

interface Stored {
  readonly messageId: string;
  readonly body: string;
  readonly sentAt: number;
  receiveCount: number;
  firstReceivedAt: number | undefined;
  visibleAt: number;
  receiptHandle: string | undefined;
}

export interface QueueSettings {
  readonly arn: string;
  readonly visibilityTimeoutSeconds: number;
  readonly now: () => number;
  readonly redrive?: {
    readonly deadLetterQueue: InMemoryPolledQueue;
    readonly maxReceiveCount: number;
  };
}

export class InMemoryPolledQueue implements PolledQueue {
  readonly arn: string;
  readonly #settings: QueueSettings;
  readonly #messages: Stored[] = [];
  #sequence = 0;

  constructor(settings: QueueSettings) {
    this.arn = settings.arn;
    this.#settings = settings;
  }

  /** The bodies it holds, visible or not, in the order sent. */
  get bodies(): string[] {
    return this.#messages.map((m) => m.body);
  }

  send(body: string): string {
    this.#sequence += 1;
    const messageId = `00000000-0000-4000-8000-${String(this.#sequence).padStart(12, '0')}`;
    const sentAt = this.#settings.now();
    this.#messages.push({
      messageId,
      body,
      sentAt,
      receiveCount: 0,
      firstReceivedAt: undefined,
      visibleAt: sentAt,
      receiptHandle: undefined,
    });
    return messageId;
  }

  receive(maxMessages: number): readonly ReceivedMessage[] {
    const now = this.#settings.now();
    const received: ReceivedMessage[] = [];
    for (const message of [...this.#messages]) {
      if (received.length >= maxMessages) break;
      if (message.visibleAt > now) continue;
      if (this.#redriven(message)) continue;
      received.push(this.#handOut(message, now));
    }
    return received;
  }

  delete(receiptHandle: string): void {
    const index = this.#messages.findIndex((m) => m.receiptHandle === receiptHandle);
    if (index >= 0) this.#messages.splice(index, 1);
  }

  #redriven(message: Stored): boolean {
    const redrive = this.#settings.redrive;
    if (redrive === undefined || message.receiveCount < redrive.maxReceiveCount) return false;
    this.#messages.splice(this.#messages.indexOf(message), 1);
    redrive.deadLetterQueue.send(message.body);
    return true;
  }

  #handOut(message: Stored, now: number): ReceivedMessage {
    message.receiveCount += 1;
    message.firstReceivedAt ??= now;
    message.visibleAt = now + this.#settings.visibilityTimeoutSeconds * 1000;
    message.receiptHandle = `${message.messageId}#${message.receiveCount}`;
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'AIDAIENQZJOLO23YVJ4VO',
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
    };
  }
}
