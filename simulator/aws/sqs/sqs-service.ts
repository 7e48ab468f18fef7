/**
 * SQS over its JSON protocol (awsJson1_0, `X-Amz-Target: AmazonSQS.<Operation>`, query
 * compatible: errors also carry their query code in `x-amzn-query-error`), for the calls the
 * functions, the event source mappings and the tests make.
 */
import { AwsError, type AwsService } from '../aws-service.ts';
import { type JsonOperation, jsonRpcService } from '../json/json-rpc-service.ts';
import { md5Hex, type RedrivePolicy } from './sqs-queue.ts';
import type { CreateQueueSettings, SqsQueues } from './sqs-queues.ts';

/** The query codes of SQS's errors, from its model's `awsQueryError` traits. */
const QUERY_ERRORS = {
  QueueDoesNotExist: 'AWS.SimpleQueueService.NonExistentQueue',
  QueueNameExists: 'QueueAlreadyExists',
  MessageNotInflight: 'AWS.SimpleQueueService.MessageNotInflight',
  ReceiptHandleIsInvalid: 'ReceiptHandleIsInvalid',
  InvalidAttributeValue: 'InvalidAttributeValue',
};

type Input = Readonly<Record<string, unknown>>;

function seconds(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new AwsError('InvalidAttributeValue', `${name} must be an integer from 0 to ${max}`);
  }
  return n;
}

function redrivePolicy(text: unknown): RedrivePolicy | undefined {
  if (typeof text !== 'string') return undefined;
  const parsed = JSON.parse(text) as { deadLetterTargetArn?: string; maxReceiveCount?: unknown };
  const maxReceiveCount = Number(parsed.maxReceiveCount);
  if (typeof parsed.deadLetterTargetArn !== 'string' || !(maxReceiveCount >= 1)) {
    throw new AwsError(
      'InvalidAttributeValue',
      'RedrivePolicy needs deadLetterTargetArn and maxReceiveCount',
    );
  }
  return { deadLetterTargetArn: parsed.deadLetterTargetArn, maxReceiveCount };
}

function createSettings(attributes: Readonly<Record<string, unknown>>): CreateQueueSettings {
  const settings = {
    visibilityTimeout: seconds(attributes.VisibilityTimeout, 'VisibilityTimeout', 43_200),
    delaySeconds: seconds(attributes.DelaySeconds, 'DelaySeconds', 900),
    messageRetentionPeriod: seconds(
      attributes.MessageRetentionPeriod,
      'MessageRetentionPeriod',
      1_209_600,
    ),
    redrivePolicy: redrivePolicy(attributes.RedrivePolicy),
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** The attributes asked for, `All` meaning every one. */
function selected(all: Record<string, string>, names: unknown): Record<string, string> | undefined {
  const wanted = Array.isArray(names) ? (names as string[]) : [];
  if (wanted.length === 0) return undefined;
  if (wanted.includes('All')) return all;
  return Object.fromEntries(Object.entries(all).filter(([name]) => wanted.includes(name)));
}

/** Queues' own operations: creating, finding and reading them. */
function queueOperations(queues: SqsQueues): Record<string, JsonOperation> {
  return {
    CreateQueue: (input: Input) => {
      const attributes = (input.Attributes ?? {}) as Record<string, unknown>;
      const queue = queues.create(String(input.QueueName), createSettings(attributes));
      return { QueueUrl: queue.settings.url };
    },
    GetQueueUrl: (input: Input) => {
      const queue = queues.byName(String(input.QueueName));
      if (queue === undefined) {
        throw new AwsError('QueueDoesNotExist', 'The specified queue does not exist.');
      }
      return { QueueUrl: queue.settings.url };
    },
    GetQueueAttributes: (input: Input) => {
      const queue = queues.requireByUrl(input.QueueUrl);
      return { Attributes: selected(queue.attributes(), input.AttributeNames) ?? {} };
    },
  };
}

function receiveMessage(queues: SqsQueues, input: Input) {
  const queue = queues.requireByUrl(input.QueueUrl);
  const max = Number(input.MaxNumberOfMessages ?? 1);
  const visibility = seconds(input.VisibilityTimeout, 'VisibilityTimeout', 43_200);
  const names = input.MessageSystemAttributeNames ?? input.AttributeNames;
  const messages = queue.receive(max, visibility).map((m) => ({
    MessageId: m.messageId,
    ReceiptHandle: m.receiptHandle,
    MD5OfBody: m.md5OfBody,
    Body: m.body,
    Attributes: selected({ ...m.attributes }, names),
  }));
  return messages.length === 0 ? {} : { Messages: messages };
}

/** Messages' operations: sending, receiving, deleting and hiding them. */
function messageOperations(queues: SqsQueues): Record<string, JsonOperation> {
  return {
    SendMessage: (input: Input, caller) => {
      const queue = queues.requireByUrl(input.QueueUrl);
      const body = String(input.MessageBody ?? '');
      const delaySeconds = seconds(input.DelaySeconds, 'DelaySeconds', 900);
      const id = queue.send(body, { delaySeconds, senderId: caller.accessKeyId });
      return { MessageId: id, MD5OfMessageBody: md5Hex(body) };
    },
    ReceiveMessage: (input: Input) => receiveMessage(queues, input),
    DeleteMessage: (input: Input) => {
      queues.requireByUrl(input.QueueUrl).delete(String(input.ReceiptHandle));
      return {};
    },
    ChangeMessageVisibility: (input: Input) => {
      const timeout = seconds(input.VisibilityTimeout, 'VisibilityTimeout', 43_200) ?? 0;
      queues.requireByUrl(input.QueueUrl).changeVisibility(String(input.ReceiptHandle), timeout);
      return {};
    },
  };
}

export function sqsService(queues: SqsQueues): AwsService {
  return jsonRpcService({
    signingName: 'sqs',
    actionPrefix: 'sqs',
    target: 'AmazonSQS',
    jsonVersion: '1.0',
    namespace: 'com.amazonaws.sqs',
    queryErrors: QUERY_ERRORS,
    operations: { ...queueOperations(queues), ...messageOperations(queues) },
  });
}
