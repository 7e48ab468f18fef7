/**
 * An interruption event as Nodesmith acts on it, whatever its EventBridge shape
 * (aws/karpenter-provider-aws `pkg/controllers/interruption/messages`), or a failing status
 * check (instance-status.ts): which kind, which
 * instances, and the event's own id, the key that makes handling it twice do nothing new.
 */

export type InterruptionKind =
  | 'SpotInterruption'
  | 'RebalanceRecommendation'
  | 'StateChange'
  | 'ScheduledChange'
  | 'CapacityReservationInterruption'
  /** EC2's status checks, read with DescribeInstanceStatus rather than from an event. */
  | 'InstanceStatusFailed'
  | 'SystemStatusFailed'
  | 'ScheduledEvent';

export interface InterruptionMessage {
  /** The EventBridge event id. */
  readonly id: string;
  readonly kind: InterruptionKind;
  /** Bare ids (`i-0abc…`), whatever form the event named them in. */
  readonly instanceIds: readonly string[];
  /** When the event happened (ISO-8601). */
  readonly time: string;
  /** State-change events: the state the instance entered. */
  readonly state?: string;
  /** AWS Health events: the event type (`AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED`, …). */
  readonly eventTypeCode?: string;
  /** Status checks: the checks that failed, or the scheduled events' codes. */
  readonly checks?: readonly string[];
}

const INSTANCE_ARN = /^arn:aws[a-z-]*:ec2:[^:]*:[^:]*:instance\/(i-[0-9a-f]+)$/;

/** `i-0abc` from itself or from an instance ARN; undefined for anything else. */
export function instanceIdOf(value: string): string | undefined {
  if (/^i-[0-9a-f]+$/.test(value)) return value;
  return INSTANCE_ARN.exec(value)?.[1];
}
