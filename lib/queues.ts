/**
 * The two queues that wake Nodesmith, each with a dead-letter queue that keeps what could not be
 * processed intact for 14 days: the work queue (wakes from the relay, the tick and the
 * controller itself) and the interruption queue (EC2 and AWS Health events). Encrypted at rest,
 * TLS only.
 */
import { Duration } from 'aws-cdk-lib';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface WakeQueuesProps {
  /**
   * How long a message stays invisible while its function works on it: six times the function's
   * timeout, as Lambda's SQS integration advises, so retries of a batch do not overlap.
   */
  readonly workVisibilityTimeout: Duration;
  /**
   * Seconds, not minutes: a spot warning whose handling failed must come back while the
   * instance still runs (at least the function's timeout, which Lambda requires).
   */
  readonly interruptionVisibilityTimeout: Duration;
}

/** A failed message is tried this many times before it goes to the dead-letter queue. */
const MAX_RECEIVES = 5;

function queueWithDlq(scope: Construct, id: string, visibilityTimeout: Duration) {
  const deadLetterQueue = new Queue(scope, `${id}Dlq`, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout,
    retentionPeriod: Duration.days(1),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVES },
  });
  return { queue, deadLetterQueue };
}

export class WakeQueues extends Construct {
  readonly work: IQueue;
  readonly workDeadLetters: IQueue;
  readonly interruption: IQueue;
  readonly interruptionDeadLetters: IQueue;

  constructor(scope: Construct, id: string, props: WakeQueuesProps) {
    super(scope, id);
    const work = queueWithDlq(this, 'Work', props.workVisibilityTimeout);
    this.work = work.queue;
    this.workDeadLetters = work.deadLetterQueue;
    const interruption = queueWithDlq(this, 'Interruption', props.interruptionVisibilityTimeout);
    this.interruption = interruption.queue;
    this.interruptionDeadLetters = interruption.deadLetterQueue;
  }
}
