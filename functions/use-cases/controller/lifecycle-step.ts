/**
 * docs/design.md §3.5: carries out the lifecycle actions the domain decides — resume launches a
 * stopped pass left, record instances it launched, register (with the termination finalizer)
 * and initialize joined nodes, mark for deletion claims whose Node was deleted, remove claims
 * that timed out or lost their instance, terminate orphans. Each action is idempotent, so
 * one that fails is simply decided again by a later pass: the claim is backed off and the other
 * actions go on (claim-isolation.ts).
 */
import pLimit from 'p-limit';
import { podEventUpdates } from '../../domain/disruption/pod-events.ts';
import type { InstanceType } from '../../domain/instance-type.ts';
import { Label } from '../../domain/labels.ts';
import { claimDisruption, markedForDeletion } from '../../domain/lifecycle/claim-deletion.ts';
import { type LifecycleAction, lifecycleActions } from '../../domain/lifecycle/lifecycle.ts';
import { registrationPatch } from '../../domain/lifecycle/node-readiness.ts';
import {
  type Demotion,
  demotedClaim,
  demotionLabels,
} from '../../domain/lifecycle/reservation-demotion.ts';
import type { Pod } from '../../domain/pod.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { TERMINATION_FINALIZER } from '../../domain/termination/finalizer.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { type ClaimIsolation, type FailedAction, failureReason } from './claim-isolation.ts';
import { launchClaim, recordLaunch } from './claim-launch.ts';
import { type ClaimChange, type ClaimStepOutcome, claimsAfter } from './claim-step.ts';
import { decisionOf } from './decisions.ts';
import { nodeEvent } from './node-event.ts';
import { letNodeGo } from './node-removal.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { LifecycleRecord } from './pass-report.ts';
import type { PassSnapshot } from './pass-snapshot.ts';
import { recordEvents } from './record-events.ts';
import type { UntaggedClaimInstances } from './untagged-claim-instances.ts';

export interface LifecycleContext {
  readonly snapshot: PassSnapshot;
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly write: FencedWrite;
  readonly concurrency: number;
  readonly isolation: ClaimIsolation;
}

export type LifecycleOutcome = ClaimStepOutcome;

/** The step's own: each registering claim's pods, as first seen in this pass. */
interface LifecycleRun extends LifecycleContext {
  readonly podsFirstSeen: ReadonlyMap<string, NonNullable<NodeClaimRecord['pods']>>;
}

/**
 * A claim's node's pods are first seen when it registers (domain/disruption/pod-events.ts): the
 * digest goes in the registration's own write, where the disruption step would write the same
 * claim again later in the pass. One pass over the pods for every claim that registers.
 */
function podsFirstSeen(
  actions: readonly LifecycleAction[],
  pods: readonly Pod[],
  now: Date,
): LifecycleRun['podsFirstSeen'] {
  const joining = actions.flatMap((a) =>
    a.kind === 'Register' ? [{ ...a.claim, nodeName: a.node.name }] : [],
  );
  if (joining.length === 0) return new Map();
  return new Map(
    podEventUpdates(joining, pods, now).flatMap((c) => (c.pods ? [[c.name, c.pods]] : [])),
  );
}

interface Step extends ClaimChange {
  readonly record: Omit<LifecycleRecord, 'at'>;
  readonly decision?: Decision;
  /** What `kubectl describe node` shows about the step. */
  readonly event?: ClusterEvent;
}

async function register(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'Register' }>,
  context: LifecycleRun,
): Promise<Step> {
  const { claim, node } = action;
  await deps.cluster.registerNode(node.name, registrationPatch(claim, node));
  const now = deps.clock.now();
  const pods = context.podsFirstSeen.get(claim.name);
  const registered = await deps.state.nodeClaims.update(
    {
      ...claim,
      nodeName: node.name,
      phase: NodeClaimPhase.registered,
      timestamps: { ...claim.timestamps, Registered: now.toISOString() },
      ...(pods === undefined ? {} : { pods }),
    },
    context.write,
  );
  const reason = `node ${node.name} joined as ${claim.providerID}`;
  return {
    claim: registered,
    record: { kind: 'Registered', claim: claim.name, nodeName: node.name, reason },
    decision: decisionOf('Registered', registered, now, reason),
    event: nodeEvent(node.name, 'Registered', `Node registered as nodeclaim/${claim.name}`),
  };
}

async function initialize(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'Initialize' }>,
  write: FencedWrite,
): Promise<Step> {
  const { claim, node } = action;
  await deps.cluster.patchNodeMetadata(node.name, { labels: { [Label.initialized]: 'true' } });
  const now = deps.clock.now();
  const initialized = await deps.state.nodeClaims.update(
    {
      ...claim,
      phase: NodeClaimPhase.initialized,
      timestamps: { ...claim.timestamps, Initialized: now.toISOString() },
    },
    write,
  );
  const reason = `node ${node.name} is Ready`;
  return {
    claim: initialized,
    record: { kind: 'Initialized', claim: claim.name, nodeName: node.name, reason },
    decision: decisionOf('Initialized', initialized, now, reason),
    event: nodeEvent(node.name, 'Initialized', `Node is ready for pods of nodeclaim/${claim.name}`),
  };
}

async function addFinalizer(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'AddFinalizer' }>,
): Promise<Step> {
  const { claim, node } = action;
  await deps.cluster.addFinalizer(node.name, TERMINATION_FINALIZER);
  const reason = `node ${node.name} registered before it carried ${TERMINATION_FINALIZER}`;
  return {
    claim,
    record: { kind: 'FinalizerAdded', claim: claim.name, nodeName: node.name, reason },
  };
}

/** Its Node was deleted (kubectl delete node) and the finalizer holds it: termination drains it. */
async function markForDeletion(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'MarkForDeletion' }>,
  context: LifecycleContext,
): Promise<Step> {
  const { claim, node } = action;
  const now = deps.clock.now();
  const pool = context.snapshot.nodePools.find((p) => p.metadata.name === claim.nodePool);
  const message = `node ${node.name} was deleted`;
  const marked = markedForDeletion(claim, claimDisruption('NodeDeleted', message, now, pool));
  // The domain decides this only for claims not already going.
  if (marked === undefined) throw new Error(`marking node claim ${claim.name}: already going`);
  const updated = await deps.state.nodeClaims.update(marked, context.write);
  const reason = `NodeDeleted: ${message}`;
  return {
    claim: updated,
    record: { kind: 'Disrupting', claim: claim.name, nodeName: node.name, reason },
    decision: decisionOf('Disrupting', updated, now, reason),
    event: nodeEvent(node.name, 'DisruptionTerminating', `Disrupting node: ${reason}`),
  };
}

async function remove(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'Remove' }>,
  write: FencedWrite,
): Promise<Step> {
  const { claim, node, reason } = action;
  if (claim.instanceId !== undefined) await deps.cloud.terminate(claim.instanceId);
  if (node !== undefined) {
    await recordEvents(
      deps.cluster,
      [nodeEvent(node.name, 'Terminating', reason, { warning: true })],
      1,
    );
  }
  await letNodeGo(deps.cluster, claim, node?.name);
  await deps.state.nodeClaims.delete(claim.name, write);
  const kind = claim.instanceId === undefined ? 'LaunchFailed' : 'Terminated';
  return {
    removed: claim.name,
    record: {
      kind: kind === 'Terminated' ? 'Removed' : 'LaunchFailed',
      claim: claim.name,
      ...(claim.instanceId ? { instanceId: claim.instanceId } : {}),
      reason,
    },
    decision: decisionOf(kind, claim, deps.clock.now(), reason),
  };
}

async function terminateOrphan(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'TerminateOrphan' }>,
): Promise<Step> {
  const { instance } = action;
  await deps.cloud.terminate(instance.instanceId);
  const reason = 'instance has the cluster tags but no NodeClaim';
  return {
    record: { kind: 'TerminatedOrphan', instanceId: instance.instanceId, reason },
    decision: {
      kind: 'Terminated',
      time: deps.clock.now().toISOString(),
      nodeClaim: instance.nodeClaim ?? '',
      nodePool: instance.nodePool ?? '',
      instanceId: instance.instanceId,
      instanceType: instance.instanceType,
      zone: instance.zone,
      capacityType: instance.capacityType,
      pricePerHour: 0,
      reason,
    },
  };
}

async function releaseNode(
  deps: PassDependencies,
  action: Extract<LifecycleAction, { kind: 'ReleaseNode' }>,
): Promise<Step> {
  const { node } = action;
  await deps.cluster.removeFinalizer(node.name, TERMINATION_FINALIZER);
  const reason = `node has ${TERMINATION_FINALIZER} but no NodeClaim`;
  return { record: { kind: 'NodeReleased', nodeName: node.name, reason } };
}

async function resumeLaunch(
  deps: PassDependencies,
  claim: NodeClaimRecord,
  context: LifecycleContext,
): Promise<Step> {
  const outcome = await launchClaim(deps, {
    claim,
    nodeClasses: context.snapshot.nodeClasses,
    instanceTypes: context.instanceTypes.get(claim.nodePool) ?? [],
    write: context.write,
  });
  if (outcome.kind === 'launched') {
    return {
      claim: outcome.claim,
      record: {
        kind: 'Launched',
        claim: claim.name,
        instanceId: outcome.claim.instanceId,
        reason: 'resumed a launch a stopped pass left',
      },
      decision: decisionOf('Launched', outcome.claim, deps.clock.now(), 'resumed launch'),
    };
  }
  if (outcome.kind === 'retry') {
    return { claim, record: { kind: 'LaunchRetry', claim: claim.name, reason: outcome.reason } };
  }
  return {
    removed: claim.name,
    record: { kind: 'LaunchFailed', claim: claim.name, reason: outcome.reason },
    decision: decisionOf('LaunchFailed', claim, deps.clock.now(), outcome.reason),
  };
}

/** The reservation ended: the Node and the claim say on-demand from now on. */
async function demote(
  deps: PassDependencies,
  action: Demotion,
  context: LifecycleContext,
): Promise<Step> {
  const { claim, node } = action;
  const types = context.instanceTypes.get(claim.nodePool) ?? [];
  if (node !== undefined) {
    await deps.cluster.patchNodeMetadata(node.name, { labels: demotionLabels() });
  }
  const demoted =
    claim.offering.capacityType === 'reserved'
      ? await deps.state.nodeClaims.update(demotedClaim(claim, types), context.write)
      : claim;
  const reservation = claim.network?.capacityReservationId ?? 'its reservation';
  return {
    claim: demoted,
    record: {
      kind: 'Demoted',
      claim: claim.name,
      ...(node === undefined ? {} : { nodeName: node.name }),
      reason: `${reservation} ended; the instance runs on as on-demand`,
    },
  };
}

function carryOut(
  deps: PassDependencies,
  action: LifecycleAction,
  context: LifecycleRun,
): Promise<Step> {
  switch (action.kind) {
    case 'Launch':
      return resumeLaunch(deps, action.claim, context);
    case 'Adopt':
      return recordLaunch(
        deps,
        action.claim,
        action.instance,
        context.instanceTypes.get(action.claim.nodePool) ?? [],
        context.write,
      ).then((claim) => ({
        claim,
        record: { kind: 'Adopted', claim: claim.name, instanceId: action.instance.instanceId },
        decision: decisionOf(
          'Launched',
          claim,
          deps.clock.now(),
          'recorded an instance a stopped pass launched',
        ),
      }));
    case 'Register':
      return register(deps, action, context);
    case 'Initialize':
      return initialize(deps, action, context.write);
    case 'AddFinalizer':
      return addFinalizer(deps, action);
    case 'MarkForDeletion':
      return markForDeletion(deps, action, context);
    case 'Remove':
      return remove(deps, action, context.write);
    case 'TerminateOrphan':
      return terminateOrphan(deps, action);
    case 'ReleaseNode':
      return releaseNode(deps, action);
    case 'Demote':
      return demote(deps, action, context);
  }
}

/** The claim an action is about; orphan instances and Nodes being let go have none. */
function claimOf(action: LifecycleAction): NodeClaimRecord | undefined {
  return 'claim' in action ? action.claim : undefined;
}

/** What a failed action was about, for the report, the node's Event and the backoff. */
function whatFailed(action: LifecycleAction): FailedAction {
  const claim = claimOf(action);
  const nodeName = 'node' in action ? action.node?.name : undefined;
  const instanceId =
    claim?.instanceId ?? ('instance' in action ? action.instance.instanceId : undefined);
  return {
    action: action.kind,
    ...(claim === undefined ? {} : { claim }),
    ...(nodeName === undefined ? {} : { nodeName }),
    ...(instanceId === undefined ? {} : { instanceId }),
  };
}

/** The failure told and the claim backed off; rejects only when the failure is not the claim's. */
async function failedStep(
  action: LifecycleAction,
  context: LifecycleContext,
  err: unknown,
): Promise<Step> {
  const what = whatFailed(action);
  const failed = await context.isolation.failed(what, err);
  return {
    ...(failed === undefined ? {} : { claim: failed }),
    record: {
      kind: 'ActionFailed',
      ...(what.claim === undefined ? {} : { claim: what.claim.name }),
      ...(what.instanceId === undefined ? {} : { instanceId: what.instanceId }),
      reason: failureReason(action.kind, err),
    },
  };
}

/** The action, or, when it fails, the claim backed off and the failure told. */
async function attempt(
  deps: PassDependencies,
  action: LifecycleAction,
  context: LifecycleRun,
): Promise<Step> {
  if (!('claim' in action)) {
    return carryOut(deps, action, context).catch((err) => failedStep(action, context, err));
  }
  try {
    return await context.isolation.clearingFailure(action.claim, (claim) =>
      carryOut(deps, { ...action, claim }, context),
    );
  } catch (err) {
    return failedStep(action, context, err);
  }
}

/** What the pass did about its claims' instances that lacked the ownership tag. */
function ownershipRecords(untagged: UntaggedClaimInstances, at: string): LifecycleRecord[] {
  const tagged = untagged.tagged.map((instanceId) => ({
    at,
    kind: 'TaggedOwned',
    instanceId,
    reason: "a claim's instance launched before the ownership tag",
  }));
  if (untagged.problem === undefined) return tagged;
  const waiting = untagged.instances.filter((i) => !i.owned);
  return waiting.map((i) => ({
    at,
    kind: 'OwnershipTagRefused',
    instanceId: i.instanceId,
    ...(i.nodeClaim === undefined ? {} : { claim: i.nodeClaim }),
    reason: `kept for its claim, but it cannot be terminated until tagged: ${untagged.problem}`,
  }));
}

export async function runLifecycle(
  deps: PassDependencies,
  context: LifecycleContext,
): Promise<LifecycleOutcome> {
  const { snapshot } = context;
  const actions = lifecycleActions({
    claims: snapshot.claims,
    nodes: snapshot.nodes,
    instances: snapshot.instances,
    now: deps.clock.now(),
  });
  const { isolation } = context;
  const due = actions.filter((a) => !('claim' in a) || isolation.isDue(a.claim));
  const run = { ...context, podsFirstSeen: podsFirstSeen(due, snapshot.pods, deps.clock.now()) };
  const limit = pLimit(context.concurrency);
  const steps = await Promise.all(
    due.map((a) =>
      limit(async () => ({
        ...(await attempt(deps, a, run)),
        at: deps.clock.now().toISOString(),
      })),
    ),
  );
  const tagging = ownershipRecords(snapshot.untagged, deps.clock.now().toISOString());
  return {
    records: [...tagging, ...steps.map((s) => ({ at: s.at, ...s.record }))],
    decisions: steps.flatMap((s) => (s.decision ? [s.decision] : [])),
    events: steps.flatMap((s) => (s.event ? [s.event] : [])),
    claims: claimsAfter(snapshot.claims, steps),
  };
}
