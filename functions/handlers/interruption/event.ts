/**
 * The interruption queue's messages: EventBridge events, the whole event as the SQS body (the
 * shapes of aws/karpenter-provider-aws `pkg/controllers/interruption/messages`). Five kinds are
 * read; the instance id comes from the detail, an instance ARN (AWS Health's newer `entityValue`)
 * read as the bare id. State-change samples in AWS's documentation omit `version`, so it is not
 * required.
 */
import * as z from 'zod';
import {
  type InterruptionMessage,
  instanceIdOf,
} from '../../domain/interruption/interruption-message.ts';

// Not Powertools' EventBridgeSchema: it requires version, account, region, resources and UTC time.
const envelope = z.object({
  version: z.literal('0').optional(),
  id: z.string().min(1),
  'detail-type': z.string(),
  source: z.string(),
  time: z.iso.datetime({ offset: true }),
  detail: z.unknown(),
});

const instanceId = z.string().transform((value, ctx) => {
  const id = instanceIdOf(value);
  if (id === undefined) {
    ctx.addIssue({ code: 'custom', message: `not an instance id or ARN: "${value}"` });
    return z.NEVER;
  }
  return id;
});

const instanceDetail = z.object({ 'instance-id': instanceId });
const stateDetail = z.object({ 'instance-id': instanceId, state: z.string() });
const healthDetail = z.object({
  service: z.string(),
  eventTypeCategory: z.string(),
  eventTypeCode: z.string().optional(),
  affectedEntities: z.array(z.object({ entityValue: z.string() })).optional(),
});

export type ParsedMessage =
  | { readonly kind: 'interruption'; readonly message: InterruptionMessage }
  /** A well-formed event Nodesmith does not act on. */
  | { readonly kind: 'ignored'; readonly reason: string }
  /** Not an event that can be read: logged with its body and dropped, as Karpenter drops it. */
  | { readonly kind: 'unparsable'; readonly reason: string };

function issueText(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  const path = [where, ...(issue?.path ?? [])].join('.');
  return `${path}: ${issue?.message ?? 'invalid'}`;
}

type Envelope = z.output<typeof envelope>;

function fromDetail<T>(
  schema: z.ZodType<T>,
  event: Envelope,
  build: (detail: T) => ParsedMessage,
): ParsedMessage {
  const detail = schema.safeParse(event.detail);
  return detail.success
    ? build(detail.data)
    : { kind: 'unparsable', reason: issueText(detail.error, 'detail') };
}

function message(event: Envelope, rest: Omit<InterruptionMessage, 'id' | 'time'>): ParsedMessage {
  return { kind: 'interruption', message: { id: event.id, time: event.time, ...rest } };
}

function health(event: Envelope): ParsedMessage {
  return fromDetail(healthDetail, event, (detail) => {
    if (detail.service !== 'EC2' || detail.eventTypeCategory !== 'scheduledChange') {
      return {
        kind: 'ignored',
        reason: `AWS Health ${detail.service} ${detail.eventTypeCategory} event`,
      };
    }
    const values = (detail.affectedEntities ?? []).map((e) => e.entityValue);
    const instanceIds = values.map(instanceIdOf).filter((id) => id !== undefined);
    if (instanceIds.length === 0) {
      return { kind: 'unparsable', reason: 'detail.affectedEntities: no instance id or ARN' };
    }
    return message(event, {
      kind: 'ScheduledChange',
      instanceIds,
      ...(detail.eventTypeCode === undefined ? {} : { eventTypeCode: detail.eventTypeCode }),
    });
  });
}

function byType(event: Envelope): ParsedMessage {
  const type = `${event.source}/${event['detail-type']}`;
  switch (type) {
    case 'aws.ec2/EC2 Spot Instance Interruption Warning':
      return fromDetail(instanceDetail, event, (d) =>
        message(event, { kind: 'SpotInterruption', instanceIds: [d['instance-id']] }),
      );
    case 'aws.ec2/EC2 Capacity Reservation Instance Interruption Warning':
      return fromDetail(instanceDetail, event, (d) =>
        message(event, {
          kind: 'CapacityReservationInterruption',
          instanceIds: [d['instance-id']],
        }),
      );
    case 'aws.ec2/EC2 Instance Rebalance Recommendation':
      return fromDetail(instanceDetail, event, (d) =>
        message(event, { kind: 'RebalanceRecommendation', instanceIds: [d['instance-id']] }),
      );
    case 'aws.ec2/EC2 Instance State-change Notification':
      return fromDetail(stateDetail, event, (d) =>
        message(event, { kind: 'StateChange', instanceIds: [d['instance-id']], state: d.state }),
      );
    case 'aws.health/AWS Health Event':
      return health(event);
    default:
      return {
        kind: 'ignored',
        reason: `${event.source} "${event['detail-type']}" is not an interruption`,
      };
  }
}

/** The SQS body read as an interruption, an event to ignore, or an unreadable message. */
export function parseInterruptionMessage(body: string): ParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: 'unparsable', reason: 'body is not JSON' };
  }
  const event = envelope.safeParse(json);
  if (!event.success) return { kind: 'unparsable', reason: issueText(event.error, 'event') };
  return byType(event.data);
}
