/**
 * The NodeClaim lifecycle step of a controller pass (docs/design.md §3.5): from the claims, the
 * nodes and the instances the cloud lists, what to do now to move each claim on. Pure: the
 * controller carries the actions out and the next pass sees the result, so an action that is
 * cut short is simply decided again (every action is idempotent).
 */
import type { Node } from '../node.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';
import { compareText } from '../state/order.ts';
import { hasTerminationFinalizer } from '../termination/finalizer.ts';
import { initializationBlocker } from './node-readiness.ts';
import { type Demotion, demotionOf } from './reservation-demotion.ts';
import {
  elapsed,
  INSTANCE_GONE_GRACE_MS,
  LAUNCH_TTL_MS,
  ORPHAN_GRACE_MS,
  REGISTRATION_TTL_MS,
} from './timeouts.ts';

/** An instance the cloud lists with the cluster's tags; a port's ManagedInstance is one. */
export interface CloudInstance {
  readonly instanceId: string;
  readonly providerID: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: NodeClaimRecord['offering']['capacityType'];
  readonly launchTime: string;
  /** The claim and pool it was launched for (its tags). */
  readonly nodeClaim?: string;
  readonly nodePool?: string;
  /**
   * It carries Nodesmith's ownership tag. Only such an instance is ever an orphan: one without
   * it was launched by something else (Karpenter, a node group) and is never terminated here.
   */
  readonly owned: boolean;
}

export type LifecycleAction =
  /** A claim written by a pass that stopped before launching: launch it (idempotent by name). */
  | { readonly kind: 'Launch'; readonly claim: NodeClaimRecord }
  /** A pass stopped between CreateFleet and recording it: record the instance it launched. */
  | { readonly kind: 'Adopt'; readonly claim: NodeClaimRecord; readonly instance: CloudInstance }
  | { readonly kind: 'Register'; readonly claim: NodeClaimRecord; readonly node: Node }
  | { readonly kind: 'Initialize'; readonly claim: NodeClaimRecord; readonly node: Node }
  /** A node registered before registration added the termination finalizer: add it now. */
  | { readonly kind: 'AddFinalizer'; readonly claim: NodeClaimRecord; readonly node: Node }
  /**
   * Someone deleted the claim's Node and the finalizer holds it: mark the claim for deletion,
   * so termination drains the node, terminates the instance and then lets the Node go.
   */
  | { readonly kind: 'MarkForDeletion'; readonly claim: NodeClaimRecord; readonly node: Node }
  /** Give up on the claim: terminate its instance if any, delete its node if any, remove it. */
  | {
      readonly kind: 'Remove';
      readonly claim: NodeClaimRecord;
      readonly node?: Node;
      readonly reason: string;
    }
  | { readonly kind: 'TerminateOrphan'; readonly instance: CloudInstance }
  /**
   * A deleted Node that carries the finalizer but whose claim is gone: nothing is left to drain
   * it for, and its instance is an orphan cleanup terminates, so the finalizer goes.
   */
  | { readonly kind: 'ReleaseNode'; readonly node: Node }
  /** Its reservation ended and the instance runs on as on-demand: relabel claim and Node. */
  | Demotion;

export interface LifecycleInput {
  /** Claims with a terminal disruption are left to termination (issue of the disruption step). */
  readonly claims: readonly NodeClaimRecord[];
  readonly nodes: readonly Node[];
  readonly instances: readonly CloudInstance[];
  readonly now: Date;
}

const minutes = (ms: number) => `${ms / 60_000}m`;

function pendingAction(
  claim: NodeClaimRecord,
  instance: CloudInstance | undefined,
  now: Date,
): LifecycleAction | undefined {
  if (instance !== undefined) return { kind: 'Adopt', claim, instance };
  if (elapsed(claim.timestamps.Pending, now, LAUNCH_TTL_MS)) {
    return {
      kind: 'Remove',
      claim,
      reason: `launch did not complete within ${minutes(LAUNCH_TTL_MS)}`,
    };
  }
  return { kind: 'Launch', claim };
}

function launchedAction(
  claim: NodeClaimRecord,
  instance: CloudInstance | undefined,
  node: Node | undefined,
  now: Date,
): LifecycleAction | undefined {
  if (instance === undefined && elapsed(claim.timestamps.Launched, now, INSTANCE_GONE_GRACE_MS)) {
    return { kind: 'Remove', claim, ...(node ? { node } : {}), reason: 'instance is gone' };
  }
  if (claim.phase === NodeClaimPhase.launched) {
    if (node !== undefined) return { kind: 'Register', claim, node };
    if (elapsed(claim.timestamps.Launched, now, REGISTRATION_TTL_MS)) {
      return {
        kind: 'Remove',
        claim,
        reason: `node did not register within ${minutes(REGISTRATION_TTL_MS)}`,
      };
    }
    return undefined;
  }
  if (node === undefined) {
    // Its Node is gone without the finalizer (one registered before Nodesmith added it): the
    // claim and its instance go too, or the claim would stand in as capacity no pod can reach.
    return claim.nodeName === undefined
      ? undefined
      : { kind: 'Remove', claim, reason: `node ${claim.nodeName} was deleted` };
  }
  return registeredAction(claim, node);
}

/** A registered claim whose node is there: its deletion, its finalizer, its initialization. */
function registeredAction(claim: NodeClaimRecord, node: Node): LifecycleAction | undefined {
  const finalized = hasTerminationFinalizer(node);
  if (node.deleting && finalized) return { kind: 'MarkForDeletion', claim, node };
  // A deleted object takes no new finalizer; without ours, the node goes on its own.
  if (!node.deleting && !finalized) return { kind: 'AddFinalizer', claim, node };
  if (claim.phase === NodeClaimPhase.registered) {
    return initializationBlocker(claim, node) === undefined
      ? { kind: 'Initialize', claim, node }
      : undefined;
  }
  return undefined;
}

const ADVANCING: ReadonlySet<string> = new Set([
  NodeClaimPhase.launched,
  NodeClaimPhase.registered,
  NodeClaimPhase.initialized,
]);

/** Deleted nodes held by the finalizer that no claim owns, in name order. */
function orphanNodeActions(input: LifecycleInput): LifecycleAction[] {
  const claimed = new Set(input.claims.flatMap((c) => (c.providerID ? [c.providerID] : [])));
  return input.nodes
    .filter((n) => n.deleting && hasTerminationFinalizer(n))
    .filter((n) => n.providerID === undefined || !claimed.has(n.providerID))
    .sort((a, b) => compareText(a.name, b.name))
    .map((node) => ({ kind: 'ReleaseNode', node }));
}

/** What one claim needs now: its launch, its registration, its removal, or its demotion. */
function claimAction(
  claim: NodeClaimRecord,
  instance: CloudInstance | undefined,
  node: Node | undefined,
  now: Date,
): LifecycleAction | undefined {
  if (claim.phase === NodeClaimPhase.pending) return pendingAction(claim, instance, now);
  if (!ADVANCING.has(claim.phase)) return undefined;
  return (
    launchedAction(claim, instance, node, now) ?? demotionOf(claim, instance?.capacityType, node)
  );
}

/**
 * The actions, claims first in name order, then orphan instances in id order, then orphan
 * nodes. Orphan instances are Nodesmith's own without a claim; any other is left alone.
 */
export function lifecycleActions(input: LifecycleInput): LifecycleAction[] {
  const instanceOf = new Map(
    input.instances.flatMap((i) => (i.nodeClaim === undefined ? [] : [[i.nodeClaim, i] as const])),
  );
  const nodeByProvider = new Map(
    input.nodes.flatMap((n) => (n.providerID === undefined ? [] : [[n.providerID, n] as const])),
  );
  const actions: LifecycleAction[] = [];
  for (const claim of [...input.claims].sort((a, b) => compareText(a.name, b.name))) {
    const instance = instanceOf.get(claim.name);
    const node = claim.providerID === undefined ? undefined : nodeByProvider.get(claim.providerID);
    const action = claimAction(claim, instance, node, input.now);
    if (action !== undefined) actions.push(action);
  }
  const claimed = new Set(input.claims.map((c) => c.name));
  for (const instance of [...input.instances].sort((a, b) =>
    compareText(a.instanceId, b.instanceId),
  )) {
    const orphan = instance.nodeClaim === undefined || !claimed.has(instance.nodeClaim);
    if (instance.owned && orphan && elapsed(instance.launchTime, input.now, ORPHAN_GRACE_MS)) {
      actions.push({ kind: 'TerminateOrphan', instance });
    }
  }
  return [...actions, ...orphanNodeActions(input)];
}
