/**
 * The interruption queue's messages as Karpenter's interruption controller counts them
 * (aws/karpenter-provider-aws pkg/controllers/interruption/controller.go, utils.go; docs/metrics.md):
 * every message it reads is received under its type and deleted once handled; one it cannot
 * parse is only deleted.
 */
import { KarpenterMetric } from '../../contract/metric-names.ts';
import type { InterruptionMessage } from '../../domain/interruption/interruption-message.ts';
import type { MetricSample } from '../../ports/metrics.ts';
import { counted, observed } from '../metric-samples.ts';
import type { InterruptionOutcome } from './handle-interruption.ts';

/** Karpenter's `message_type` (pkg/controllers/interruption/messages/types.go). */
export function messageType(message: Pick<InterruptionMessage, 'kind' | 'state'>): string {
  switch (message.kind) {
    case 'SpotInterruption':
      return 'spot_interrupted';
    case 'RebalanceRecommendation':
      return 'rebalance_recommendation';
    case 'ScheduledChange':
      return 'scheduled_change';
    case 'CapacityReservationInterruption':
      return 'capacity_reservation_interrupted';
    case 'StateChange':
      return stateChangeType(message.state ?? '');
    case 'InstanceStatusFailed':
      return 'instance_status';
    case 'SystemStatusFailed':
      return 'system_status';
    case 'ScheduledEvent':
      return 'event_status';
  }
}

/** Karpenter's type for an event of a source it reads but a kind it does nothing for. */
const NO_OP = 'no_op';

/**
 * Stops and terminations; a state Karpenter does not react to (`running`, `pending`) parses as
 * a no-op (messages/statechange/parser.go and model.go).
 */
function stateChangeType(state: string): string {
  if (state === 'stopping' || state === 'stopped') return 'instance_stopped';
  if (state === 'shutting-down' || state === 'terminated') return 'instance_terminated';
  return NO_OP;
}

const deleted = () => counted(KarpenterMetric.interruptionDeletedMessages, [{}]);

/**
 * The claims a message marked for deletion, labelled as Karpenter counts them in
 * `karpenter_nodeclaims_disrupted_total` (utils.go, deleteNodeClaim): `reason` the message
 * type. A redelivery finds its claims already going: Karpenter counts a claim when it deletes it.
 */
export function disruptedByMessage(
  type: string,
  outcome: InterruptionOutcome,
): Record<string, string>[] {
  if (outcome.duplicate) return [];
  return outcome.instances
    .filter((i) => i.action === 'CordonAndDrain' && i.nodePool !== undefined)
    .map((i) => ({
      reason: type,
      nodepool: i.nodePool ?? '',
      capacity_type: i.capacityType ?? '',
    }));
}

/** A message acted on at `now`: received, its claims disrupted, its time on the queue, deleted. */
export function handledMetrics(
  message: InterruptionMessage,
  outcome: InterruptionOutcome,
  now: Date,
): MetricSample[] {
  const type = messageType(message);
  return [
    ...counted(KarpenterMetric.interruptionReceivedMessages, [{ message_type: type }]),
    ...counted(KarpenterMetric.nodeClaimsDisrupted, disruptedByMessage(type, outcome)),
    ...observed(KarpenterMetric.interruptionMessageQueueDuration, [
      { labels: {}, value: (now.getTime() - Date.parse(message.time)) / 1000 },
    ]),
    ...deleted(),
  ];
}

/** An event of a kind Nodesmith does nothing for: received as a no-op and deleted. */
export function ignoredMetrics(): MetricSample[] {
  return [
    ...counted(KarpenterMetric.interruptionReceivedMessages, [{ message_type: NO_OP }]),
    ...deleted(),
  ];
}

/** A message that is no event Karpenter reads: deleted, never received. */
export function unparsableMetrics(): MetricSample[] {
  return deleted();
}
