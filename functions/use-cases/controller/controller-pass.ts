/**
 * One controller pass, docs/design.md §3 in order: take the lease (or leave it to the pass that
 * holds it), EC2's status checks, snapshot, adoption of Karpenter's nodes (with `adoptKarpenterNodes`), lifecycle,
 * provisioning (replacements for nodes being deleted included), static NodePools' replicas,
 * disruption, termination, then release and
 * ask for the next pass in about ten seconds while anything is in flight.
 */

import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { OverlayConflict } from '../../domain/overlays/overlaid-instance-types.ts';
import { type PodStartups, podStartups, transitionWindow } from '../../domain/pod-startup.ts';
import { poolUsage } from '../../domain/pools/pool-usage.ts';
import type { UnschedulablePod } from '../../domain/scheduling/provisioning-plan.ts';
import type { LeaseGrant } from '../../domain/state/lease.ts';
import { NodeClaimPhase } from '../../domain/state/node-claim-record.ts';
import type { Decision, LimitReached } from '../../ports/decisions.ts';
import type { PoolInstanceTypes } from '../instance-types-by-pool.ts';
import type { InterruptionOutcome } from '../interruption/handle-interruption.ts';
import { type AdoptionOutcome, adoptKarpenterNodes } from './adoption-step.ts';
import { ClaimIsolation } from './claim-isolation.ts';
import { type DisruptionOutcome, runDisruption } from './disruption-step.ts';
import { checkInstanceStatuses } from './instance-status-check.ts';
import { fencedSideEffects } from './lease-guard.ts';
import { type LifecycleOutcome, runLifecycle } from './lifecycle-step.ts';
import { watchLimits } from './limit-watch.ts';
import type { PassDependencies, PassSettings } from './pass-dependencies.ts';
import { type ClaimActionFailure, emptyPassReport, type PassReport } from './pass-report.ts';
import { type PassSnapshot, readSnapshot, startReads } from './pass-snapshot.ts';
import { podEvents } from './pod-events.ts';
import { type ProvisioningOutcome, provision } from './provisioning-step.ts';
import { recordEvents } from './record-events.ts';
import { type StaticPoolsOutcome, scaleStaticPools } from './static-pools-step.ts';
import { runTermination, type TerminationOutcome } from './termination-step.ts';

/**
 * The lease outlives the longest the pass can run by this much, for clocks that differ between
 * invocations; Lambda ends the invocation at its timeout, so no pass outlives its lease.
 */
const LEASE_MARGIN_SECONDS = 30;

export async function runControllerPass(
  deps: PassDependencies,
  settings: PassSettings,
): Promise<PassReport> {
  const started = deps.clock.now();
  const leaseSeconds = Math.ceil(settings.timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
  const grant = await deps.state.lease.acquire(deps.holder, started, leaseSeconds);
  if (grant === undefined) return emptyPassReport(started.toISOString());
  try {
    return await fencedPass(fencedSideEffects(deps, grant), settings, grant, started);
  } finally {
    await deps.state.lease.release(grant);
  }
}

/**
 * Asks for the next pass at once when this one ran out of time with pods left, soon while
 * claims are on their way; the minute tick covers the rest.
 */
async function wakeForWhatIsLeft(
  deps: PassDependencies,
  settings: PassSettings,
  inFlight: number,
  unschedulable: readonly UnschedulablePod[],
): Promise<number | undefined> {
  const cut = unschedulable.filter((u) => u.reasons.some((r) => r.code === 'Deadline')).length;
  if (cut > 0) {
    await deps.waker.wake({ source: 'controller', reason: `${cut} pods left at the deadline` }, 0);
    return 0;
  }
  if (inFlight === 0) return undefined;
  const reason = `${inFlight} node claims in flight`;
  await deps.waker.wake({ source: 'controller', reason }, settings.inFlightWakeSeconds);
  return settings.inFlightWakeSeconds;
}

/** What the pass puts on the bus, in the order the steps decided it. */
function published(
  { adoption, lifecycle, provisioning, staticPools, disruption, termination }: PassSteps,
  limitsReached: readonly LimitReached[],
): (Decision | LimitReached)[] {
  return [
    ...adoption.decisions,
    ...lifecycle.decisions,
    ...limitsReached,
    ...provisioning.decisions,
    ...staticPools.decisions,
    ...disruption.decisions,
    ...termination.decisions,
  ];
}

/** Decisions to the bus, events to the cluster: what operators and `kubectl describe` see. */
async function tell(
  deps: PassDependencies,
  concurrency: number,
  { snapshot, isolation }: PassRun,
  steps: PassSteps,
  decisions: readonly (Decision | LimitReached)[],
): Promise<void> {
  const { adoption, lifecycle, provisioning, staticPools, disruption, termination } = steps;
  await deps.decisions.publish(decisions);
  const { launches, unschedulable, failures } = provisioning;
  await recordEvents(
    deps.cluster,
    [
      ...adoption.events,
      ...lifecycle.events,
      ...podEvents(snapshot.pods, { launches, unschedulable, failures }),
      ...staticPools.events,
      ...disruption.events,
      ...termination.events,
      ...isolation.events,
    ],
    concurrency,
  );
}

interface PassSteps {
  readonly adoption: Omit<AdoptionOutcome, 'snapshot'>;
  readonly lifecycle: LifecycleOutcome;
  readonly provisioning: ProvisioningOutcome;
  readonly staticPools: StaticPoolsOutcome;
  readonly disruption: DisruptionOutcome;
  readonly termination: TerminationOutcome;
  /** NodeOverlays the pass left out. */
  readonly overlayConflicts: readonly OverlayConflict[];
}

/** What the steps of one pass share. */
interface PassRun {
  readonly write: { readonly fence: LeaseGrant };
  readonly isolation: ClaimIsolation;
  readonly started: Date;
  readonly snapshot: PassSnapshot;
  /** The instance types of the snapshot's pools. */
  readonly types: PoolInstanceTypes;
  /** The snapshot's classes with what they select now. */
  readonly resolvedClasses: readonly EC2NodeClass[];
}

async function runSteps(
  deps: PassDependencies,
  settings: PassSettings,
  { write, isolation, started, snapshot: read, types, resolvedClasses }: PassRun,
): Promise<PassSteps> {
  const instanceTypes = types.byPool;
  const adoption = settings.adoptKarpenterNodes
    ? await adoptKarpenterNodes(deps, { snapshot: read, instanceTypes, write })
    : { snapshot: read, records: [], decisions: [], events: [] };
  const { snapshot } = adoption;
  const concurrency = settings.launchConcurrency;
  const lifecycle = await runLifecycle(deps, {
    snapshot,
    instanceTypes,
    write,
    concurrency,
    isolation,
  });
  const deadline = started.getTime() + settings.deadlineMs;
  const common = { snapshot, instanceTypes, write, settings, deadline };
  const provisioning = await provision(deps, { ...common, claims: lifecycle.claims });
  const staticPools = await scaleStaticPools(deps, {
    ...common,
    claims: provisioning.claims,
    isolation,
    countedAt: started,
  });
  const disruption = await runDisruption(deps, {
    ...common,
    claims: staticPools.claims,
    nominated: provisioning.nominated,
    isolation,
    resolvedClasses,
  });
  const termination = await runTermination(deps, {
    snapshot,
    claims: disruption.claims,
    write,
    concurrency,
    isolation,
  });
  return {
    adoption,
    lifecycle,
    provisioning,
    staticPools,
    disruption,
    termination,
    overlayConflicts: types.overlayConflicts,
  };
}

function reportOf(
  started: Date,
  finished: Date,
  steps: PassSteps,
  after: {
    readonly claimFailures: readonly ClaimActionFailure[];
    readonly inFlight: number;
    readonly nextWakeSeconds: number | undefined;
    readonly reached: readonly LimitReached[];
    readonly decisions: readonly (Decision | LimitReached)[];
    readonly statusChecks: readonly InterruptionOutcome[];
    readonly startups: PodStartups | undefined;
  },
): PassReport {
  const { inFlight, nextWakeSeconds, statusChecks, startups } = after;
  const { adoption, lifecycle, provisioning, staticPools, disruption, termination } = steps;
  const { overlayConflicts } = steps;
  return {
    ran: true,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    provisionablePods: provisioning.provisionablePods,
    rounds: provisioning.rounds,
    launches: [...provisioning.launches, ...staticPools.launches],
    failures: [...provisioning.failures, ...staticPools.failures],
    replannedPods: provisioning.replannedPods,
    lifecycle: [
      ...adoption.records,
      ...lifecycle.records,
      ...staticPools.records,
      ...disruption.records,
      ...termination.records,
    ],
    decisions: after.decisions.filter((d): d is Decision => d.kind !== 'LimitReached'),
    disruption: disruption.commands,
    claimFailures: after.claimFailures,
    unschedulable: provisioning.unschedulable,
    inFlight,
    ...(nextWakeSeconds === undefined ? {} : { nextWakeSeconds }),
    pools: poolUsage(termination.claims),
    limitsReached: after.reached,
    ...(overlayConflicts.length === 0 ? {} : { overlayConflicts }),
    ...(staticPools.shortfalls.length === 0 ? {} : { staticShortfalls: staticPools.shortfalls }),
    ...(statusChecks.length === 0 ? {} : { statusChecks }),
    ...(startups === undefined ? {} : { podStartups: startups }),
  };
}

/**
 * The pods that started since the pass before, from the pass before's start (pod-startup.ts);
 * undefined when none did.
 */
function startupsSince(
  grant: LeaseGrant,
  started: Date,
  snapshot: PassSnapshot,
): PodStartups | undefined {
  const window = transitionWindow(grant.previousAcquiredAt, started);
  if (window === undefined) return undefined;
  const startups = podStartups(snapshot.pods, window);
  return startups.startup.length + startups.bound.length === 0 ? undefined : startups;
}

async function fencedPass(
  deps: PassDependencies,
  settings: PassSettings,
  grant: LeaseGrant,
  started: Date,
): Promise<PassReport> {
  const { startingLimits } = settings;
  // What EC2's status checks cannot change is read while they run (docs/design.md §3.3).
  const early = startReads(deps, started, startingLimits);
  const { outcomes: statusChecks, acted } = await checkInstanceStatuses(deps);
  const {
    snapshot,
    instanceTypes: types,
    resolvedClasses,
  } = await readSnapshot(deps, early, {
    now: started,
    ...(startingLimits === undefined ? {} : { startingLimits }),
    statusChecksActed: acted,
  });
  const isolation = new ClaimIsolation(deps, grant);
  const run = { write: { fence: grant }, isolation, started, snapshot, types, resolvedClasses };
  const steps = await runSteps(deps, settings, run);
  const reached = await watchLimits(deps, steps.provisioning.unschedulable, started);
  const decisions = published(steps, reached);
  await tell(deps, settings.launchConcurrency, run, steps, decisions);
  const { provisioning, termination } = steps;
  const inFlight = termination.claims.filter(
    (c) => c.phase !== NodeClaimPhase.initialized || c.disruption !== undefined,
  ).length;
  const nextWakeSeconds = await wakeForWhatIsLeft(
    deps,
    settings,
    inFlight,
    provisioning.unschedulable,
  );
  return reportOf(started, deps.clock.now(), steps, {
    claimFailures: isolation.failures,
    inFlight,
    nextWakeSeconds,
    reached,
    decisions,
    statusChecks,
    startups: startupsSince(grant, started, snapshot),
  });
}
