/**
 * One SQS queue on simulated time (SQS developer guide, "Visibility timeout", "Delay queues",
 * "Dead-letter queues"): a sent message is visible once its delay has passed; a received one is
 * hidden for the visibility timeout and comes back unless deleted; each receive counts, and a
 * message received more than the redrive policy's `maxReceiveCount` times moves to the
 * dead-letter queue instead of being handed out again. Messages older than the retention period
 * are dropped.
 */
import { createHash } from 'node:crypto';
import { AwsError, type PolledQueue, type ReceivedMessage } from '../aws-service.ts';

export interface RedrivePolicy {
  readonly deadLetterTargetArn: string;
  readonly maxReceiveCount: number;
}

export interface SqsQueueSettings {
  readonly name: string;
  readonly arn: string;
  readonly url: string;
  /** Seconds. @default 30 */
  readonly visibilityTimeout: number;
  /** Seconds every message waits before it is first visible. @default 0 */
  readonly delaySeconds: number;
  /** Seconds a message is kept. @default 345600 (four days) */
  readonly messageRetentionPeriod: number;
  readonly redrivePolicy?: RedrivePolicy;
  readonly createdAt: number;
}

/** What the queue needs of the account around it: the time, ids, and its dead-letter queue. */
export interface SqsQueueContext {
  readonly now: () => number;
  readonly nextMessageId: () => string;
  readonly queueByArn: (arn: string) => SqsQueue | undefined;
}

interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly md5OfBody: string;
  readonly sentAt: number;
  readonly senderId: string;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** The handle of the latest receive; a message never received has none. */
  receiptHandle?: string;
}

export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

export class SqsQueue implements PolledQueue {
  readonly settings: SqsQueueSettings;
  readonly #context: SqsQueueContext;
  /** In the order sent: SQS standard queues give no order, so the simplest one is as good. */
  #messages: StoredMessage[] = [];
  readonly #sendListeners: ((body: string) => void)[] = [];

  constructor(settings: SqsQueueSettings, context: SqsQueueContext) {
    this.settings = settings;
    this.#context = context;
  }

  get arn(): string {
    return this.settings.arn;
  }

  /** Returns the message id; the delay is the message's own or else the queue's. */
  send(body: string, options: { delaySeconds?: number; senderId?: string } = {}): string {
    const now = this.#context.now();
    const messageId = this.#context.nextMessageId();
    const delay = options.delaySeconds ?? this.settings.delaySeconds;
    this.#messages.push({
      messageId,
      body,
      md5OfBody: md5Hex(body),
      sentAt: now,
      senderId: options.senderId ?? 'AIDASIMULATED',
      visibleAt: now + delay * 1000,
      receiveCount: 0,
    });
    for (const listener of this.#sendListeners) listener(body);
    return messageId;
  }

  /** Tells `listener` each body sent from now on: the simulation's own view, not an SQS API. */
  onSend(listener: (body: string) => void): void {
    this.#sendListeners.push(listener);
  }

  /**
   * Up to `maxMessages` visible messages, hidden for the visibility timeout given or the queue's.
   * A message past its `maxReceiveCount` goes to the dead-letter queue instead.
   */
  receive(maxMessages: number, visibilityTimeout?: number): readonly ReceivedMessage[] {
    const now = this.#context.now();
    this.#dropExpired(now);
    const hiddenFor = (visibilityTimeout ?? this.settings.visibilityTimeout) * 1000;
    const received: ReceivedMessage[] = [];
    for (const message of [...this.#messages]) {
      if (received.length >= maxMessages) break;
      if (message.visibleAt > now) continue;
      if (this.#redrive(message)) continue;
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + hiddenFor;
      message.receiptHandle = receiptHandleOf(this.arn, message);
      received.push(toReceived(message, message.receiptHandle));
    }
    return received;
  }

  /** Deleting a message already gone succeeds, as in SQS; a handle of no message is refused. */
  delete(receiptHandle: string): void {
    this.#requireHandleOfThisQueue(receiptHandle);
    this.#messages = this.#messages.filter((m) => m.receiptHandle !== receiptHandle);
  }

  /** Hides an in-flight message for `seconds` from now; zero makes it visible at once. */
  changeVisibility(receiptHandle: string, seconds: number): void {
    this.#requireHandleOfThisQueue(receiptHandle);
    const now = this.#context.now();
    const message = this.#messages.find((m) => m.receiptHandle === receiptHandle);
    if (message === undefined || message.visibleAt <= now) {
      throw new AwsError('MessageNotInflight', 'the message is not in flight');
    }
    message.visibleAt = now + seconds * 1000;
  }

  /** The approximate counts as GetQueueAttributes reports them, with the settings. */
  attributes(): Record<string, string> {
    const now = this.#context.now();
    this.#dropExpired(now);
    const inFlight = this.#messages.filter((m) => m.visibleAt > now && m.receiveCount > 0);
    const delayed = this.#messages.filter((m) => m.visibleAt > now && m.receiveCount === 0);
    const { settings } = this;
    return {
      QueueArn: settings.arn,
      ApproximateNumberOfMessages: String(this.#messages.length - inFlight.length - delayed.length),
      ApproximateNumberOfMessagesNotVisible: String(inFlight.length),
      ApproximateNumberOfMessagesDelayed: String(delayed.length),
      VisibilityTimeout: String(settings.visibilityTimeout),
      DelaySeconds: String(settings.delaySeconds),
      MessageRetentionPeriod: String(settings.messageRetentionPeriod),
      CreatedTimestamp: String(Math.floor(settings.createdAt / 1000)),
      ...(settings.redrivePolicy === undefined
        ? {}
        : { RedrivePolicy: JSON.stringify(settings.redrivePolicy) }),
    };
  }

  /** Moves the message to the dead-letter queue when it has been received enough; true if moved. */
  #redrive(message: StoredMessage): boolean {
    const policy = this.settings.redrivePolicy;
    if (policy === undefined || message.receiveCount < policy.maxReceiveCount) return false;
    const deadLetters = this.#context.queueByArn(policy.deadLetterTargetArn);
    // SQS keeps redriving to a dead-letter queue that is gone; the message is kept until it exists.
    if (deadLetters === undefined) return false;
    this.#messages = this.#messages.filter((m) => m !== message);
    deadLetters.#accept(message);
    return true;
  }

  /** A message redriven here keeps its id, body and sent time; its receives start again. */
  #accept(message: StoredMessage): void {
    const { messageId, body, md5OfBody, sentAt, senderId } = message;
    const now = this.#context.now();
    this.#messages.push({
      messageId,
      body,
      md5OfBody,
      sentAt,
      senderId,
      visibleAt: now,
      receiveCount: 0,
    });
  }

  #dropExpired(now: number): void {
    const keptSince = now - this.settings.messageRetentionPeriod * 1000;
    this.#messages = this.#messages.filter((m) => m.sentAt > keptSince);
  }

  #requireHandleOfThisQueue(receiptHandle: string): void {
    if (queueArnOfHandle(receiptHandle) !== this.arn) {
      throw new AwsError(
        'ReceiptHandleIsInvalid',
        `the receipt handle ${receiptHandle} is not valid`,
        404,
      );
    }
  }
}

/** A handle names the queue, the message and the receive, so each receive's handle is its own. */
function receiptHandleOf(queueArn: string, message: StoredMessage): string {
  const text = `${queueArn}#${message.messageId}#${message.receiveCount}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

function queueArnOfHandle(receiptHandle: string): string {
  return Buffer.from(receiptHandle, 'base64url').toString('utf8').split('#')[0] ?? '';
}

function toReceived(message: StoredMessage, receiptHandle: string): ReceivedMessage {
  return {
    messageId: message.messageId,
    receiptHandle,
    body: message.body,
    md5OfBody: message.md5OfBody,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: message.senderId,
      ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt ?? message.sentAt),
    },
  };
}
