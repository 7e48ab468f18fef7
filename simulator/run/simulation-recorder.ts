/**
 * Watches a simulation run and keeps what the report shows: the timeline a Karpenter user
 * recognises, samples of the cluster, decision latencies, and the invariants checked at the end.
 */

import { HOURLY_COST } from '../../functions/domain/limits/hourly-cost.ts';
import { toNode } from '../../functions/manifests/kubernetes/node.ts';
import { toPod } from '../../functions/manifests/kubernetes/pod.ts';
import type { WakeSource } from '../../functions/ports/wake.ts';
import type { LaunchRecord, PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { SchedulingCycle } from '../cluster/stand-in-scheduler.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import type { QueuedWake } from '../simulated-work-queue.ts';
import { DecisionLatencies } from './decision-latencies.ts';
import type { RunOutcome } from './invariants.ts';
import type { AwsActivity, KubernetesActivity } from './nodesmith.ts';
import { reportedUnschedulable, toldUnschedulable } from './pending-reasons.ts';
import type { SimulationOptions } from './simulation-options.ts';
import type { Sample, SimulationReport, TimelineEntry, WakeCounts } from './simulation-report.ts';
import { round4, summarize } from './summary.ts';
import { SIMULATION_START, type World } from './world.ts';

const money = (n: number) => `$${n.toFixed(4)}/h`;

export class SimulationRecorder {
  readonly #world: World;
  readonly #scenario: Scenario;
  readonly #options: SimulationOptions;
  readonly #timeline: TimelineEntry[] = [];
  readonly #samples: Sample[] = [];
  readonly #latencies = new DecisionLatencies();
  #seenPasses = 0;
  #seenDecisions = 0;
  /** The `Nominated` events already read, by uid: the server lists them by name, not by age. */
  readonly #seenEvents = new Set<string>();
  /** The cluster's hourly-cost limit, drawn beside the cost. */
  readonly #costLimit: number | undefined;
  #lastT = 0;
  /** Nodesmith's invocations ended when the claims were last read unsettled (`settled`). */
  #unsettledClaimsAt: number | undefined;

  constructor(world: World, scenario: Scenario, options: SimulationOptions) {
    this.#world = world;
    this.#scenario = scenario;
    this.#options = options;
    const limit = scenario.clusterLimits?.[HOURLY_COST];
    this.#costLimit = limit === undefined ? undefined : Number(limit);
  }

  note(t: number, message: string): void {
    this.#timeline.push({ t, message });
    this.#options.onProgress?.(`${clock(t)}  ${message}`);
  }

  scheduled(t: number, cycle: SchedulingCycle): void {
    this.#latencies.marked(t, cycle.markedUnschedulable);
    this.#latencies.bound(cycle.bound.map((b) => b.pod));
    if (cycle.markedUnschedulable.length > 0) {
      this.note(t, `kube-scheduler marked ${cycle.markedUnschedulable.length} pods Unschedulable`);
    }
    if (cycle.bound.length > 0) {
      const nodes = new Set(cycle.bound.map((b) => b.node)).size;
      this.note(t, `kube-scheduler bound ${cycle.bound.length} pods to ${nodes} nodes`);
    }
  }

  async passes(t: number, due: readonly QueuedWake[]): Promise<void> {
    await this.#world.deliver(due);
    const { nodesmith } = this.#world;
    for (const report of nodesmith.passes.slice(this.#seenPasses)) this.#pass(t, report);
    this.#seenPasses = nodesmith.passes.length;
    if (!nodesmith.reportsPasses) this.#told(t);
  }

  /**
   * Passes out of reach (deployed): read as an operator reads them, from the decisions on the
   * bus and the pods' `Nominated` events, which mark each pod's first place.
   */
  #told(t: number): void {
    const decisions = this.#world.nodesmith.decisions();
    for (const d of decisions.slice(this.#seenDecisions)) {
      const offering = `${d.instanceType}, ${d.zone}, ${d.capacityType}, ${money(d.pricePerHour)}`;
      this.note(t, `${d.kind} ${d.nodeClaim} (${offering}): ${d.reason}`);
    }
    this.#seenDecisions = decisions.length;
    // Read in place: copying every event of the run at every step made this quadratic.
    for (const event of this.#world.server.store.listShared('events')) {
      const involved = event.involvedObject as JsonObject | undefined;
      if (event.reason !== 'Nominated' || involved?.kind !== 'Pod') continue;
      const uid = String((event.metadata as JsonObject).uid);
      if (this.#seenEvents.has(uid)) continue;
      this.#seenEvents.add(uid);
      const at = String(event.eventTime ?? event.firstTimestamp ?? '');
      this.#latencies.placed(simulatedSeconds(at), [`${involved.namespace}/${involved.name}`]);
    }
  }

  #pass(t: number, report: PassReport): void {
    if (!report.ran) {
      this.note(t, 'a pass found the lease held by another and left the work to it');
      return;
    }
    for (const step of report.lifecycle) {
      const line = lifecycleLine(step);
      if (line !== undefined) this.note(t, line);
    }
    if (report.provisionablePods > 0) {
      this.note(t, `found ${report.provisionablePods} provisionable pods`);
    }
    for (const round of report.rounds.filter((r) => r.newNodeClaims > 0 || r.round > 0)) {
      const prefix = round.round === 0 ? 'computed' : `re-planned ${round.pendingPods} pods:`;
      this.note(t, `${prefix} ${round.newNodeClaims} new node claims`);
    }
    for (const failure of report.failures) {
      this.note(t, `launch of ${failure.claim} failed: ${failure.reason}`);
    }
    for (const launch of report.launches) this.#launched(t, launch);
    // Pods the plan put on capacity already there or on its way were decided by this pass too.
    const started = simulatedSeconds(report.startedAt);
    for (const round of report.rounds) this.#latencies.placed(started, round.onExistingCapacity);
    for (const reached of report.limitsReached) {
      this.note(t, `limit reached: ${reached.message}; ${reached.pods} pods stay pending`);
    }
  }

  #launched(t: number, launch: LaunchRecord): void {
    const o = launch.claim.offering;
    const offering = `${o.instanceType}, ${o.zone}, ${o.capacityType}, ${money(o.pricePerHour)}`;
    // A claim made for no pod keeps a static NodePool's replicas.
    const what =
      launch.pods.length === 0 ? "its static NodePool's replicas" : `${launch.pods.length} pods`;
    this.note(t, `launched ${launch.claim.name} (${offering}) for ${what}`);
    // The first place a pod is given is the decision; later plans may move it elsewhere.
    this.#latencies.placed(simulatedSeconds(launch.at), launch.pods);
  }

  sample(t: number): void {
    this.#lastT = t;
    const pods = this.#world.server.store.listShared('pods');
    const running = pods.filter((p) => (p.spec as JsonObject | undefined)?.nodeName !== undefined);
    const live = this.#world.cloud.instances().filter((i) => i.terminatedAt === undefined);
    const nodesByType: Record<string, number> = {};
    for (const i of live) nodesByType[i.instanceType] = (nodesByType[i.instanceType] ?? 0) + 1;
    const budget = this.#world.ledger.current();
    this.#samples.push({
      t,
      pendingPods: pods.length - running.length,
      runningPods: running.length,
      nodesByType,
      costPerHour: round4(live.reduce((sum, i) => sum + i.pricePerHour, 0)),
      disruptingNodes: budget.disrupting,
      disruptionsAllowed: budget.allowed,
      ...(this.#costLimit === undefined ? {} : { costLimit: this.#costLimit }),
    });
  }

  /**
   * Every pod runs and no claim is still on its way: each is Initialized on a running instance,
   * with nothing decided or failed that a later pass has yet to finish (a claim whose instance
   * EC2 reclaimed, say, is removed only after a grace period and any retries).
   */
  async settled(): Promise<boolean> {
    const pods = this.#world.server.store.listShared('pods');
    if (pods.some((p) => (p.spec as JsonObject | undefined)?.nodeName === undefined)) return false;
    if (pods.some((p) => (p.metadata as JsonObject | undefined)?.deletionTimestamp !== undefined)) {
      return false;
    }
    const running = new Set(
      this.#world.cloud
        .instances()
        .filter((i) => i.terminatedAt === undefined)
        .map((i) => i.instanceId),
    );
    // Claims change only as Nodesmith's functions run: unsettled claims stay so until one has.
    const ended = this.#world.nodesmith.invocationsEnded?.();
    if (ended !== undefined && ended === this.#unsettledClaimsAt) return false;
    const claims = await this.#world.state.nodeClaims.list();
    const settled = claims.every(
      (c) =>
        c.phase === 'Initialized' &&
        c.disruption === undefined &&
        c.failure === undefined &&
        c.instanceId !== undefined &&
        running.has(c.instanceId),
    );
    if (!settled) this.#unsettledClaimsAt = ended;
    return settled;
  }

  /** What the invariants are checked against: the world at the end, and what was refused. */
  async #outcome(refused: readonly string[] | undefined): Promise<RunOutcome> {
    const world = this.#world;
    return {
      pods: world.server.store.list('pods').map(toPod),
      nodes: world.server.store.list('nodes').map(toNode),
      instances: world.cloud.instances(),
      terminations: world.terminations,
      claims: await world.state.nodeClaims.list(),
      passes: world.nodesmith.passes,
      unschedulable: world.nodesmith.reportsPasses
        ? reportedUnschedulable(world.nodesmith.passes)
        : toldUnschedulable(world.server.store.list('events')),
      removals: world.ledger.removals,
      budgets: world.ledger.budgets,
      ...(refused === undefined ? {} : { refused }),
    };
  }

  async report(): Promise<SimulationReport> {
    const world = this.#world;
    const aws = world.nodesmith.aws?.();
    const kubernetes = world.nodesmith.kubernetes?.();
    const relayed = world.nodesmith.relayRefusals?.() ?? [];
    const outcome = await this.#outcome(
      aws === undefined ? undefined : [...refusals(aws, kubernetes), ...relayed],
    );
    return {
      summary: {
        ...summarize(this.#scenario.name, outcome, this.#latencies.samplesMs()),
        ...(aws === undefined ? {} : { aws }),
        ...(kubernetes === undefined ? {} : { kubernetes }),
        wakes: wakeCounts(
          world.nodesmith.wakesSent?.bind(world.nodesmith) ?? ((s) => world.queue.sent(s)),
        ),
      },
      seed: this.#options.seed,
      duration: this.#lastT,
      samples: this.#samples,
      timeline: this.#timeline,
      decisions: world.nodesmith.decisions().map((d) => ({
        t: (Date.parse(d.time) - SIMULATION_START) / 1000,
        kind: d.kind,
        nodeClaim: d.nodeClaim,
        nodePool: d.nodePool,
        instanceType: d.instanceType,
        zone: d.zone,
        capacityType: d.capacityType,
        pricePerHour: d.pricePerHour,
        reason: d.reason,
      })),
    };
  }
}

/** The wakes the work queue was sent, by source, as the summary names them. */
function wakeCounts(sent: (source: WakeSource) => number): WakeCounts {
  return {
    admission: sent('admission'),
    audit: sent('audit'),
    tick: sent('schedule'),
    self: sent('controller'),
  };
}

/** Each refused call in a line: who, what, and on which resource or with which message. */
function refusals(aws: AwsActivity, kubernetes: KubernetesActivity | undefined): string[] {
  return [
    ...aws.denied.map(
      (d) =>
        `${d.function ?? 'a caller'} was denied ${d.action}${d.resource ? ` on ${d.resource}` : ''}`,
    ),
    ...(kubernetes?.denied ?? []).map((d) => `${d.function ?? 'a caller'}: ${d.message}`),
  ];
}

function simulatedSeconds(iso: string): number {
  return (Date.parse(iso) - SIMULATION_START) / 1000;
}

function clock(t: number): string {
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/** One lifecycle step as a timeline line; none for a drain that only waited on pods leaving. */
function lifecycleLine(step: PassReport['lifecycle'][number]): string | undefined {
  const drain = step.kind === 'Drain';
  if (drain && step.reason?.startsWith('evicted 0, refused 0, deleted 0')) return undefined;
  const what = step.claim ?? step.instanceId ?? '';
  const node = step.nodeName ? ` as ${step.nodeName}` : '';
  return `${words(step.kind)} ${what}${node}${drain ? `: ${step.reason}` : ''}`;
}

/** `DisruptionCancelled` → `disruption cancelled`. */
function words(kind: string): string {
  return kind.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}
