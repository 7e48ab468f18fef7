/**
 * What wakes Nodesmith besides the audit webhook: five EventBridge rules that send EC2's spot
 * interruption warnings, capacity reservation interruption warnings, rebalance recommendations,
 * instance state changes and AWS Health's scheduled EC2 changes to the interruption queue (aws:
 * website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml), and the tick that sends the controller a wake
 * every few minutes even when nothing happens. Every target has a dead-letter queue, so an
 * event EventBridge cannot deliver is kept, not lost.
 */
import { Duration } from 'aws-cdk-lib';
import { type EventPattern, Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { WakeQueues } from './queues.ts';

export interface WakeRulesProps {
  readonly queues: WakeQueues;
  readonly tickMinutes: number;
}

/**
 * The states in which an instance is gone or going, the ones Karpenter acts on
 * (aws/karpenter-provider-aws pkg/controllers/interruption/messages/statechange/parser.go).
 */
const GOING_STATES = ['stopping', 'stopped', 'shutting-down', 'terminated'];

export const INTERRUPTION_PATTERNS: Readonly<Record<string, EventPattern>> = {
  SpotInterruption: {
    source: ['aws.ec2'],
    detailType: ['EC2 Spot Instance Interruption Warning'],
  },
  // Since Karpenter 1.10: interruptible capacity reservations warn before their owner takes the
  // capacity back (aws: pkg/controllers/interruption/messages/capacityreservationinterruption).
  CapacityReservationInterruption: {
    source: ['aws.ec2'],
    detailType: ['EC2 Capacity Reservation Instance Interruption Warning'],
  },
  RebalanceRecommendation: {
    source: ['aws.ec2'],
    detailType: ['EC2 Instance Rebalance Recommendation'],
  },
  InstanceStateChange: {
    source: ['aws.ec2'],
    detailType: ['EC2 Instance State-change Notification'],
    detail: { state: GOING_STATES },
  },
  ScheduledChange: {
    source: ['aws.health'],
    detailType: ['AWS Health Event'],
    detail: { service: ['EC2'], eventTypeCategory: ['scheduledChange'] },
  },
};

export class WakeRules extends Construct {
  constructor(scope: Construct, id: string, props: WakeRulesProps) {
    super(scope, id);
    const { queues } = props;
    const toInterruptions = new SqsQueue(queues.interruption, {
      deadLetterQueue: queues.interruptionDeadLetters,
      retryAttempts: 8,
      maxEventAge: Duration.hours(1),
    });
    for (const [name, eventPattern] of Object.entries(INTERRUPTION_PATTERNS)) {
      new Rule(this, name, {
        description: `Nodesmith: ${eventPattern.detailType?.[0]} to the interruption queue`,
        eventPattern,
        targets: [toInterruptions],
      });
    }
    new Rule(this, 'Tick', {
      description: 'Nodesmith: the controller passes at least this often',
      schedule: Schedule.rate(Duration.minutes(props.tickMinutes)),
      targets: [
        new SqsQueue(queues.work, {
          message: RuleTargetInput.fromObject({ source: 'schedule', reason: 'tick' }),
          deadLetterQueue: queues.workDeadLetters,
          retryAttempts: 2,
          // A tick older than its interval is worth nothing: the next one is on its way.
          maxEventAge: Duration.minutes(props.tickMinutes),
        }),
      ],
    });
  }
}
