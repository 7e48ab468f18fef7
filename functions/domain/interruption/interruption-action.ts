/**
 * What an interruption means for its node (aws: pkg/controllers/interruption/utils.go,
 * actionForMessage): a spot interruption warning, a capacity reservation interruption warning,
 * an instance stopping or terminating, a scheduled maintenance or a scheduled event deletes the
 * claim — cordoned at once and drained, with replacement
 * capacity launched by the next pass. A failed instance or system status check deletes it
 * forcefully: the instance is broken, so nothing waits on its pods. A rebalance recommendation is only recorded, unless the
 * NodePool opts in with `nodesmith.io/drain-on-rebalance: "true"`, when it is handled like an
 * interruption (a long-standing Karpenter request, aws#2813).
 */
import type { NodePool } from '../node-pool.ts';
import type { InterruptionMessage } from './interruption-message.ts';

/** The NodePool annotation that turns rebalance recommendations into drains. */
export const DRAIN_ON_REBALANCE = 'nodesmith.io/drain-on-rebalance';

/** States of a state-change notification that mean the instance is going. */
const STOPPING = new Set(['stopping', 'stopped']);
const TERMINATING = new Set(['shutting-down', 'terminated']);

export type InterruptionAction =
  | {
      readonly kind: 'CordonAndDrain';
      /** The claim's disruption reason and the Event reason on the node. */
      readonly reason: string;
      readonly message: string;
      /** A spot interruption also marks its offering unavailable. */
      readonly markOfferingUnavailable: boolean;
      /**
       * Karpenter's ForcefulTermination: the instance is already broken, so its pods are not
       * waited for; the claim's termination deadline is the moment it is marked.
       */
      readonly forceful: boolean;
    }
  | { readonly kind: 'Record'; readonly reason: string; readonly message: string }
  | { readonly kind: 'Ignore' };

function drain(
  reason: string,
  message: string,
  markOfferingUnavailable = false,
  forceful = false,
): InterruptionAction {
  return { kind: 'CordonAndDrain', reason, message, markOfferingUnavailable, forceful };
}

/** Karpenter's event reason for a failing status check (interruption/events/events.go Unhealthy). */
const UNHEALTHY = 'InstanceUnhealthy';

function terminate(message: string): InterruptionAction {
  return drain(UNHEALTHY, message, false, true);
}

export function interruptionAction(
  message: InterruptionMessage,
  pool: NodePool | undefined,
): InterruptionAction {
  switch (message.kind) {
    case 'SpotInterruption':
      return drain(
        'SpotInterrupted',
        'spot interruption warning: EC2 reclaims the instance in two minutes',
        true,
      );
    case 'CapacityReservationInterruption':
      // Karpenter's event reason (interruption/events/events.go CapacityReservationInstanceInterrupted).
      return drain(
        'CapacityReservationInstanceInterrupted',
        'capacity reservation interruption warning: EC2 reclaims the instance for the reservation',
      );
    case 'InstanceStatusFailed':
      return terminate(`instance status check failed (${message.checks?.join(', ')})`);
    case 'SystemStatusFailed':
      return terminate(`system status check failed (${message.checks?.join(', ')})`);
    case 'ScheduledEvent':
      return drain(UNHEALTHY, `scheduled event (${message.checks?.join(', ')})`);
    case 'ScheduledChange':
      return drain(
        'ScheduledChange',
        `scheduled maintenance (${message.eventTypeCode ?? 'AWS Health'})`,
      );
    case 'StateChange': {
      const state = message.state ?? '';
      if (STOPPING.has(state)) return drain('InstanceStopping', `instance is ${state}`);
      if (TERMINATING.has(state)) return drain('InstanceTerminating', `instance is ${state}`);
      return { kind: 'Ignore' };
    }
    case 'RebalanceRecommendation': {
      const text = 'spot rebalance recommendation: elevated risk of interruption';
      if (pool?.metadata.annotations?.[DRAIN_ON_REBALANCE] === 'true') {
        return drain(
          'RebalanceRecommended',
          `${text}; NodePool ${pool.metadata.name} drains on it`,
        );
      }
      return { kind: 'Record', reason: 'SpotRebalanceRecommendation', message: text };
    }
  }
}
