/**
 * Rule targets that are SQS queues, delivered as EventBridge delivers them: the body (the event
 * as JSON, or the target's `Input`) becomes the message body. Targets of other kinds go to the
 * delivery given, such as the Lambda functions the world runs.
 */
import type { SqsQueues } from '../sqs/sqs-queues.ts';
import type { EventDelivery } from './simulated-event-bridge.ts';

export function deliverToQueues(queues: SqsQueues, otherwise?: EventDelivery): EventDelivery {
  return (target, body, rule) => {
    const queue = target.arn.startsWith('arn:aws:sqs:') ? queues.byArn(target.arn) : undefined;
    if (queue !== undefined) {
      queue.send(body, { senderId: 'events.amazonaws.com' });
      return;
    }
    if (otherwise === undefined) throw new Error(`rule ${rule.name}: no target ${target.arn}`);
    otherwise(target, body, rule);
  };
}
