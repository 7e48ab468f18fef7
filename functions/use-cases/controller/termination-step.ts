/**
 * docs/design.md §3.8: carries out the termination step the domain decides for each claim being
 * deleted — taint and start the drain, evict (a PDB's refusal is an Event and a later pass),
 * delete what the deadline no longer waits for, terminate the instance, then let the Node go
 * (deleted, its termination finalizer removed) and remove the claim. Every step is idempotent;
 * a step cut short is decided again next pass, and a step that fails backs its claim off
 * without holding up the others (claim-isolation.ts).
 */
import { podKey } from '../../domain/pod.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { PAST_DISRUPTION_TTL_SECONDS } from '../../domain/state/past-disruption.ts';
import { DISRUPTED_TAINT } from '../../domain/taints.ts';
import {
  drainStep,
  type TerminationAction,
  terminationSteps,
} from '../../domain/termination/termination.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { type ClaimIsolation, failureReason } from './claim-isolation.ts';
import { type ClaimChange, type ClaimStepOutcome, claimsAfter } from './claim-step.ts';
import { decisionOf } from './decisions.ts';
import { terminationGracePeriodExpiringEvent } from './disruption-events.ts';
import { nodeEvent } from './node-event.ts';
import { letNodeGo } from './node-removal.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { LifecycleRecord } from './pass-report.ts';
import type { PassSnapshot } from './pass-snapshot.ts';

/** Karpenter's label that takes a node out of cloud load balancers while it drains. */
const EXCLUDE_FROM_LOAD_BALANCERS = 'node.kubernetes.io/exclude-from-external-load-balancers';

export type TerminationOutcome = ClaimStepOutcome;

interface Step extends ClaimChange {
  readonly records: Omit<LifecycleRecord, 'at'>[];
  readonly decision?: Decision;
  readonly events: ClusterEvent[];
}

/** core: termination/controller.go tells the deadline at every reconcile of a draining node. */
function graceEvents(claim: NodeClaimRecord, node: string): ClusterEvent[] {
  const terminateBy = claim.disruption?.terminateBy;
  return terminateBy === undefined ? [] : [terminationGracePeriodExpiringEvent(node, terminateBy)];
}

function why(claim: NodeClaimRecord): string {
  const d = claim.disruption;
  return d === undefined ? 'being deleted' : `${d.reason}: ${d.message}`;
}

class Terminator {
  readonly #deps: PassDependencies;
  readonly #snapshot: PassSnapshot;
  readonly #write: FencedWrite;

  constructor(deps: PassDependencies, snapshot: PassSnapshot, write: FencedWrite) {
    this.#deps = deps;
    this.#snapshot = snapshot;
    this.#write = write;
  }

  async #advance(claim: NodeClaimRecord, phase: NodeClaimPhase): Promise<NodeClaimRecord> {
    const at = this.#deps.clock.now().toISOString();
    return this.#deps.state.nodeClaims.update(
      { ...claim, phase, timestamps: { ...claim.timestamps, [phase]: at } },
      this.#write,
    );
  }

  async startDrain(action: Extract<TerminationAction, { kind: 'StartDrain' }>): Promise<Step> {
    const { node } = action;
    if (!action.tainted) await this.#deps.cluster.addTaints(node.name, [DISRUPTED_TAINT]);
    await this.#deps.cluster.patchNodeMetadata(node.name, {
      labels: { [EXCLUDE_FROM_LOAD_BALANCERS]: 'karpenter' },
    });
    const draining = await this.#advance(action.claim, NodeClaimPhase.draining);
    const started: Step = {
      claim: draining,
      records: [
        { kind: 'Draining', claim: draining.name, nodeName: node.name, reason: why(draining) },
      ],
      events: [
        ...graceEvents(draining, node.name),
        nodeEvent(node.name, 'Draining', `Draining node: ${why(draining)}`),
      ],
    };
    // The first evictions go out in this pass: a spot warning leaves two minutes.
    const next = drainStep(draining, node, {
      pods: this.#snapshot.pods,
      nowMs: this.#deps.clock.now().getTime(),
    });
    const more = await this.carryOut(next);
    return {
      ...more,
      claim: more.claim ?? draining,
      records: [...started.records, ...more.records],
      events: [...started.events, ...more.events],
    };
  }

  async drain(action: Extract<TerminationAction, { kind: 'Drain' }>): Promise<Step> {
    const { node } = action;
    const events: ClusterEvent[] = graceEvents(action.claim, node.name);
    const refused: string[] = [];
    for (const pod of action.evict) {
      const outcome = await this.#deps.cluster.evict(pod);
      if (outcome.evicted) continue;
      refused.push(podKey(pod));
      const message = `Cannot evict pod ${podKey(pod)}: ${outcome.message}`;
      events.push(
        nodeEvent(node.name, 'FailedDraining', message, { warning: true, dedupeSeconds: 60 }),
      );
    }
    for (const pod of action.delete) {
      await this.#deps.cluster.deletePod(pod);
      const message = `Deleted pod ${podKey(pod)}: the termination grace period ends`;
      events.push(nodeEvent(node.name, 'Deleted', message));
    }
    const evicted = action.evict.length - refused.length;
    const reason = `evicted ${evicted}, refused ${refused.length}, deleted ${action.delete.length}, waiting for ${action.waiting.length}`;
    return {
      records: [{ kind: 'Drain', claim: action.claim.name, nodeName: node.name, reason }],
      events,
    };
  }

  /**
   * Keeps the ended disruption a day for the status. Only a record: a write that fails is not
   * worth failing the pass for, and the decision is on the event bus anyway.
   */
  async #remember(claim: NodeClaimRecord): Promise<void> {
    const d = claim.disruption;
    if (d === undefined) return;
    const now = this.#deps.clock.now();
    const ended = {
      nodeClaim: claim.name,
      nodePool: claim.nodePool,
      ...(claim.nodeName === undefined ? {} : { nodeName: claim.nodeName }),
      reason: d.reason,
      message: d.message,
      decidedAt: d.decidedAt,
      endedAt: now.toISOString(),
    };
    await this.#deps.state.pastDisruptions
      .record(ended, now, PAST_DISRUPTION_TTL_SECONDS)
      .catch(() => undefined);
  }

  async terminateInstance(
    action: Extract<TerminationAction, { kind: 'TerminateInstance' }>,
  ): Promise<Step> {
    const { claim, node } = action;
    if (claim.instanceId !== undefined) await this.#deps.cloud.terminate(claim.instanceId);
    const terminating =
      claim.phase === NodeClaimPhase.terminating
        ? claim
        : await this.#advance(claim, NodeClaimPhase.terminating);
    const events =
      node === undefined || claim.phase === NodeClaimPhase.terminating
        ? []
        : [
            nodeEvent(
              node.name,
              'Terminating',
              `Terminating instance ${claim.instanceId ?? ''}: ${why(claim)}`,
            ),
          ];
    const record = {
      kind: 'Terminating',
      claim: claim.name,
      ...(claim.instanceId ? { instanceId: claim.instanceId } : {}),
      reason: why(claim),
    };
    return { claim: terminating, records: [record], events };
  }

  async finish(action: Extract<TerminationAction, { kind: 'Finish' }>): Promise<Step> {
    const { claim, node } = action;
    await letNodeGo(this.#deps.cluster, claim, node?.name);
    await this.#deps.state.nodeClaims.delete(claim.name, this.#write);
    await this.#remember(claim);
    const reason = `${why(claim)}; ${action.reason}`;
    return {
      removed: claim.name,
      records: [
        {
          kind: 'Terminated',
          claim: claim.name,
          ...(claim.instanceId ? { instanceId: claim.instanceId } : {}),
          reason,
        },
      ],
      decision: decisionOf('Terminated', claim, this.#deps.clock.now(), reason),
      events: [],
    };
  }

  carryOut(action: TerminationAction): Promise<Step> {
    switch (action.kind) {
      case 'StartDrain':
        return this.startDrain(action);
      case 'Drain':
        return this.drain(action);
      case 'TerminateInstance':
        return this.terminateInstance(action);
      case 'Finish':
        return this.finish(action);
    }
  }
}

/** The step, or, when it fails, the claim backed off and the failure told. */
async function attempt(
  terminator: Terminator,
  action: TerminationAction,
  isolation: ClaimIsolation,
): Promise<Step> {
  const { claim } = action;
  try {
    return await isolation.clearingFailure(claim, (c) =>
      terminator.carryOut({ ...action, claim: c }),
    );
  } catch (err) {
    const nodeName = action.node?.name;
    const failed = await isolation.failed(
      {
        action: action.kind,
        claim,
        ...(nodeName === undefined ? {} : { nodeName }),
        ...(claim.instanceId === undefined ? {} : { instanceId: claim.instanceId }),
      },
      err,
    );
    return {
      ...(failed === undefined ? {} : { claim: failed }),
      records: [
        { kind: 'ActionFailed', claim: claim.name, reason: failureReason(action.kind, err) },
      ],
      events: [],
    };
  }
}

export async function runTermination(
  deps: PassDependencies,
  context: {
    readonly snapshot: PassSnapshot;
    readonly claims: readonly NodeClaimRecord[];
    readonly write: FencedWrite;
    readonly concurrency: number;
    readonly isolation: ClaimIsolation;
  },
): Promise<TerminationOutcome> {
  const { snapshot } = context;
  const actions = terminationSteps({
    claims: context.claims,
    nodes: snapshot.nodes,
    pods: snapshot.pods,
    liveInstances: new Set(snapshot.instances.map((i) => i.instanceId)),
    nowMs: deps.clock.now().getTime(),
  });
  const terminator = new Terminator(deps, snapshot, context.write);
  // One claim after another, in name order: evictions that share a PodDisruptionBudget then
  // meet it in the same order every time, so the same cluster drains the same way.
  const steps: Step[] = [];
  for (const action of actions.filter((a) => context.isolation.isDue(a.claim))) {
    steps.push(await attempt(terminator, action, context.isolation));
  }
  const at = deps.clock.now().toISOString();
  return {
    records: steps.flatMap((s) => s.records.map((r) => ({ at, ...r }))),
    decisions: steps.flatMap((s) => (s.decision ? [s.decision] : [])),
    events: steps.flatMap((s) => s.events),
    claims: claimsAfter(context.claims, steps),
  };
}
