/**
 * The interruption function's work for one event (docs/design.md §1.1, `interruption`): find the
 * claim of each instance, mark it for deletion with the reason, taint its node
 * `karpenter.sh/disrupted:NoSchedule` at once so nothing new lands there, mark a spot-interrupted
 * offering unavailable, and wake the controller, whose provisioning treats the node's pods as
 * pending and launches their replacement in the same pass.
 *
 * State comes first: the claim is marked, the offering too, and the controller woken before any
 * Kubernetes call, so an API server that cannot be reached (an EKS outage, a lost token) delays
 * only the taint and the Event; the redelivery, seconds later, finds the mark in place and tries
 * the Kubernetes part again. An instance that is none of the cluster's claims touches no
 * Kubernetes API at all. Everything up to the taint is idempotent; the event id is recorded after
 * the taints, and only the first delivery to record it writes the Event on the node, so a
 * redelivered event does nothing new.
 */

import {
  type InterruptionAction,
  interruptionAction,
} from '../../domain/interruption/interruption-action.ts';
import type { InterruptionMessage } from '../../domain/interruption/interruption-message.ts';
import type { CapacityType } from '../../domain/labels.ts';
import {
  claimDisruption,
  forcefulDisruption,
  isGoing,
  markedForDeletion,
} from '../../domain/lifecycle/claim-deletion.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { DISRUPTED_TAINT } from '../../domain/taints.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Cluster } from '../../ports/cluster.ts';
import { ConflictError, NotFoundError } from '../../ports/errors.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';

/** Karpenter keeps an interrupted offering out for as long as a capacity error (3 minutes). */
export const INTERRUPTED_OFFERING_SECONDS = 180;
/** Event ids are remembered for a day: EventBridge and SQS redeliver within minutes. */
export const EVENT_ID_SECONDS = 86_400;
const UPDATE_ATTEMPTS = 5;

export interface InterruptionDependencies {
  readonly state: Pick<
    StateStore,
    'nodeClaims' | 'nodePools' | 'unavailableOfferings' | 'eventsSeen'
  >;
  readonly cluster: Pick<Cluster, 'addTaints' | 'createEvent'>;
  readonly waker: Waker;
  readonly clock: Clock;
}

export interface InterruptionOutcome {
  readonly event: string;
  readonly kind: InterruptionMessage['kind'];
  /** Per instance: the claim and what was done, or why nothing was. */
  readonly instances: readonly {
    readonly instanceId: string;
    readonly claim?: string;
    readonly action: InterruptionAction['kind'] | 'NoClaim';
    /** The claim's pool and capacity type, which Karpenter's metrics label its disruption by. */
    readonly nodePool?: string;
    readonly capacityType?: CapacityType;
  }[];
  /** The event id was already recorded: a redelivery. */
  readonly duplicate: boolean;
}

/** Marks the claim for deletion, reading it again when a concurrent write wins. */
async function markClaim(
  deps: InterruptionDependencies,
  claim: NodeClaimRecord,
  action: Extract<InterruptionAction, { kind: 'CordonAndDrain' }>,
): Promise<NodeClaimRecord> {
  let current: NodeClaimRecord | undefined = claim;
  for (let attempt = 1; current !== undefined && !isGoing(current); attempt++) {
    const disruption = action.forceful
      ? forcefulDisruption(action.reason, action.message, deps.clock.now())
      : claimDisruption(
          action.reason,
          action.message,
          deps.clock.now(),
          (await deps.state.nodePools.get(current.nodePool))?.document,
        );
    const marked = markedForDeletion(current, disruption) as NodeClaimRecord;
    try {
      return await deps.state.nodeClaims.update(marked);
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= UPDATE_ATTEMPTS) throw err;
      current = await deps.state.nodeClaims.get(claim.name);
    }
  }
  return current ?? claim;
}

async function taintNode(deps: InterruptionDependencies, claim: NodeClaimRecord): Promise<void> {
  if (claim.nodeName === undefined) return;
  try {
    await deps.cluster.addTaints(claim.nodeName, [DISRUPTED_TAINT]);
  } catch (err) {
    // The node is already gone: nothing left to keep pods off.
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/** The state part: the claim marked for deletion, the interrupted offering kept out. */
async function mark(
  deps: InterruptionDependencies,
  message: InterruptionMessage,
  claim: NodeClaimRecord,
  action: InterruptionAction,
): Promise<NodeClaimRecord> {
  if (action.kind !== 'CordonAndDrain') return claim;
  const marked = await markClaim(deps, claim, action);
  if (action.markOfferingUnavailable) {
    const { instanceType, zone, capacityType } = marked.offering;
    // Counted from the event, so a redelivery sets the very same expiry.
    await deps.state.unavailableOfferings.mark(
      { instanceType, zone, capacityType },
      new Date(message.time),
      INTERRUPTED_OFFERING_SECONDS,
    );
  }
  return marked;
}

async function tellNode(
  deps: InterruptionDependencies,
  claim: NodeClaimRecord,
  action: InterruptionAction,
): Promise<void> {
  if (action.kind === 'Ignore' || claim.nodeName === undefined) return;
  const type = action.kind === 'CordonAndDrain' ? 'Warning' : 'Normal';
  try {
    await deps.cluster.createEvent({
      involvedObject: { kind: 'Node', name: claim.nodeName },
      type,
      reason: action.reason,
      message: action.message,
    });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

export async function handleInterruption(
  deps: InterruptionDependencies,
  message: InterruptionMessage,
): Promise<InterruptionOutcome> {
  const handled: { claim: NodeClaimRecord; action: InterruptionAction }[] = [];
  const instances: InterruptionOutcome['instances'][number][] = [];
  for (const instanceId of message.instanceIds) {
    const claim = await deps.state.nodeClaims.findByInstanceId(instanceId);
    if (claim === undefined) {
      instances.push({ instanceId, action: 'NoClaim' });
      continue;
    }
    const pool = await deps.state.nodePools.get(claim.nodePool);
    const action = interruptionAction(message, pool?.document);
    handled.push({ claim: await mark(deps, message, claim, action), action });
    const { nodePool, offering } = claim;
    const labels = { nodePool, capacityType: offering.capacityType };
    instances.push({ instanceId, claim: claim.name, action: action.kind, ...labels });
  }
  const draining = handled.filter((h) => h.action.kind === 'CordonAndDrain');
  if (draining.length > 0) {
    const names = draining.map((h) => h.claim.name).join(', ');
    await deps.waker.wake({ source: 'interruption', reason: `${message.kind} for ${names}` });
  }
  for (const { claim } of draining) await taintNode(deps, claim);
  if (handled.length === 0)
    return { event: message.id, kind: message.kind, instances, duplicate: false };
  const first = await deps.state.eventsSeen.recordOnce(
    `interruption/${message.id}`,
    deps.clock.now(),
    EVENT_ID_SECONDS,
  );
  if (first) await Promise.all(handled.map((h) => tellNode(deps, h.claim, h.action)));
  return { event: message.id, kind: message.kind, instances, duplicate: !first };
}
