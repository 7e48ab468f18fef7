/**
 * Interruption messages under Karpenter's `message_type` and counters (aws/karpenter-provider-aws
 * pkg/controllers/interruption/messages/types.go, statechange/parser.go, controller.go, utils.go).
 */
import { describe, expect, it } from 'vitest';
import type { InterruptionMessage } from '../../../functions/domain/interruption/interruption-message.ts';
import type { InterruptionOutcome } from '../../../functions/use-cases/interruption/handle-interruption.ts';
import {
  handledMetrics,
  messageType,
} from '../../../functions/use-cases/interruption/interruption-metrics.ts';

const aMessage = (kind: InterruptionMessage['kind'], state?: string): InterruptionMessage => ({
  id: 'event-1',
  kind,
  instanceIds: ['i-0b662ef9931388ba0'],
  time: '2026-11-24T09:00:00Z',
  ...(state === undefined ? {} : { state }),
});

describe('interruption messages as Karpenter counts them', () => {
  it.each<[InterruptionMessage['kind'], string | undefined, string]>([
    ['SpotInterruption', undefined, 'spot_interrupted'],
    ['RebalanceRecommendation', undefined, 'rebalance_recommendation'],
    ['ScheduledChange', undefined, 'scheduled_change'],
    ['CapacityReservationInterruption', undefined, 'capacity_reservation_interrupted'],
    ['StateChange', 'stopping', 'instance_stopped'],
    ['StateChange', 'stopped', 'instance_stopped'],
    ['StateChange', 'shutting-down', 'instance_terminated'],
    ['StateChange', 'terminated', 'instance_terminated'],
    ['StateChange', 'running', 'no_op'],
    ['InstanceStatusFailed', undefined, 'instance_status'],
    ['SystemStatusFailed', undefined, 'system_status'],
    ['ScheduledEvent', undefined, 'event_status'],
  ])('%s %s is %s', (kind, state, type) => {
    // Prepare: the message. Act and assess
    expect(messageType(aMessage(kind, state))).toBe(type);
  });

  it('counts a redelivery as received and deleted, but its claims as disrupted only the first time', () => {
    // Prepare
    const outcome = (duplicate: boolean): InterruptionOutcome => ({
      event: 'event-1',
      kind: 'SpotInterruption',
      instances: [
        {
          instanceId: 'i-0b662ef9931388ba0',
          claim: 'default-spot1',
          action: 'CordonAndDrain',
          nodePool: 'default',
          capacityType: 'spot',
        },
      ],
      duplicate,
    });
    const now = new Date('2026-11-24T09:00:30Z');
    // Act
    const names = (duplicate: boolean) =>
      handledMetrics(aMessage('SpotInterruption'), outcome(duplicate), now).map((s) => s.name);
    // Assess
    expect(names(false)).toEqual([
      'karpenter_interruption_received_messages_total',
      'karpenter_nodeclaims_disrupted_total',
      'karpenter_interruption_message_queue_duration_seconds',
      'karpenter_interruption_deleted_messages_total',
    ]);
    expect(names(true)).toEqual([
      'karpenter_interruption_received_messages_total',
      'karpenter_interruption_message_queue_duration_seconds',
      'karpenter_interruption_deleted_messages_total',
    ]);
  });
});
