/**
 * The account's SQS queues, addressed as SQS addresses them: by URL `<endpoint>/<account>/<name>`,
 * by ARN `arn:aws:sqs:<region>:<account>:<name>`, or by name. Creating a queue that exists with
 * the same settings returns it, as CreateQueue does; other settings are refused.
 */
import { AwsError } from '../aws-service.ts';
import { type RedrivePolicy, SqsQueue, type SqsQueueSettings } from './sqs-queue.ts';

export interface SqsQueuesOptions {
  /** The endpoint's URL, known once it listens: queue URLs begin with it. */
  readonly endpointUrl: () => string;
  readonly region: string;
  readonly account: string;
  readonly now: () => number;
}

export interface CreateQueueSettings {
  readonly visibilityTimeout?: number;
  readonly delaySeconds?: number;
  readonly messageRetentionPeriod?: number;
  readonly redrivePolicy?: RedrivePolicy;
}

const DEFAULTS = { visibilityTimeout: 30, delaySeconds: 0, messageRetentionPeriod: 345_600 };

export class SqsQueues {
  readonly #options: SqsQueuesOptions;
  readonly #byName = new Map<string, SqsQueue>();
  #messages = 0;

  constructor(options: SqsQueuesOptions) {
    this.#options = options;
  }

  create(name: string, settings: CreateQueueSettings = {}): SqsQueue {
    const { region, account, now } = this.#options;
    const wanted = { ...DEFAULTS, ...settings };
    const existing = this.#byName.get(name);
    if (existing !== undefined) {
      if (!sameSettings(existing.settings, wanted)) {
        throw new AwsError('QueueNameExists', `a queue named ${name} exists with other attributes`);
      }
      return existing;
    }
    const queue = new SqsQueue(
      {
        ...wanted,
        name,
        arn: `arn:aws:sqs:${region}:${account}:${name}`,
        url: this.urlOf(name),
        createdAt: now(),
      },
      {
        now,
        nextMessageId: () => messageId(++this.#messages),
        queueByArn: (arn) => this.byArn(arn),
      },
    );
    this.#byName.set(name, queue);
    return queue;
  }

  urlOf(name: string): string {
    return `${this.#options.endpointUrl()}/${this.#options.account}/${name}`;
  }

  byName(name: string): SqsQueue | undefined {
    return this.#byName.get(name);
  }

  byArn(arn: string): SqsQueue | undefined {
    const name = arn.split(':')[5] ?? '';
    const queue = this.#byName.get(name);
    return queue?.arn === arn ? queue : undefined;
  }

  /** The queue a QueueUrl names; only its path is read, since clients may reach it by any host. */
  byUrl(url: string): SqsQueue | undefined {
    const [account, name = ''] = new URL(url, 'http://127.0.0.1').pathname
      .split('/')
      .filter(Boolean);
    return account === this.#options.account ? this.#byName.get(name) : undefined;
  }

  /** The queue the URL names, or QueueDoesNotExist as SQS answers. */
  requireByUrl(url: unknown): SqsQueue {
    const queue = typeof url === 'string' ? this.byUrl(url) : undefined;
    if (queue === undefined) {
      throw new AwsError('QueueDoesNotExist', 'The specified queue does not exist.');
    }
    return queue;
  }
}

function sameSettings(
  a: SqsQueueSettings,
  b: Required<Omit<CreateQueueSettings, 'redrivePolicy'>> & CreateQueueSettings,
): boolean {
  return (
    a.visibilityTimeout === b.visibilityTimeout &&
    a.delaySeconds === b.delaySeconds &&
    a.messageRetentionPeriod === b.messageRetentionPeriod &&
    JSON.stringify(a.redrivePolicy) === JSON.stringify(b.redrivePolicy)
  );
}

/** Message ids in the UUID form SQS gives them, counted so that runs repeat. */
function messageId(sequence: number): string {
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}
