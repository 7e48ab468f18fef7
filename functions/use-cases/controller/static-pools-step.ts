/**
 * Static NodePools in the pass (core: pkg/controllers/static/provisioning and
 * static/deprovisioning): the domain says what each pool lacks and which claims it gives up
 * (`planStaticPools`); this step launches the missing claims as provisioning launches its own —
 * written `Pending` first, checked again against limits — and marks the surplus for deletion
 * with the reason `Overprovisioned`, for termination to drain. A launch that fails is tried again
 * by the next pass, which finds the pool still short; a capacity error marks its offerings
 * unavailable first, as provisioning does. The pool's instance types were counted at the start
 * of the pass, so the reservations launched into since are taken off before planning.
 */
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import {
  OVERPROVISIONED,
  planStaticPools,
  type StaticShortfall,
} from '../../domain/static-pools/static-scaling.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { ClaimIsolation } from './claim-isolation.ts';
import { markClaimForDeletion } from './claim-marking.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { LaunchFailure, LaunchRecord, LifecycleRecord } from './pass-report.ts';
import { emptyRound, Provisioning, type ProvisioningContext } from './provisioning.ts';
import { markUnavailable } from './provisioning-step.ts';

export interface StaticPoolsContext extends ProvisioningContext {
  readonly isolation: ClaimIsolation;
  /** When the instance types' reservation counts were taken: launches since are not in them. */
  readonly countedAt: Date;
}

export interface StaticPoolsOutcome {
  readonly launches: readonly LaunchRecord[];
  readonly failures: readonly LaunchFailure[];
  readonly shortfalls: readonly StaticShortfall[];
  readonly records: readonly LifecycleRecord[];
  readonly decisions: readonly Decision[];
  readonly events: readonly ClusterEvent[];
  readonly claims: readonly NodeClaimRecord[];
}

/** One entry per instance launched into a reservation at or after `since`. */
function reservationsLaunchedSince(claims: readonly NodeClaimRecord[], since: Date): string[] {
  return claims.flatMap((claim) => {
    const id = claim.network?.capacityReservationId;
    const launched = claim.timestamps.Launched;
    return id !== undefined && launched !== undefined && Date.parse(launched) >= since.getTime()
      ? [id]
      : [];
  });
}

async function launch(
  deps: PassDependencies,
  context: StaticPoolsContext,
  plan: ReturnType<typeof planStaticPools>,
) {
  const provisioning = new Provisioning(deps, context);
  const result = emptyRound();
  for (const planned of plan.launches)
    await provisioning.createAndLaunch(planned, context.instanceTypes, 0, result);
  if (result.unavailable.length > 0)
    await markUnavailable(deps, result.unavailable, context.settings.unavailableOfferingSeconds);
  return { result, claims: provisioning.claims };
}

export async function scaleStaticPools(
  deps: PassDependencies,
  context: StaticPoolsContext,
): Promise<StaticPoolsOutcome> {
  const { snapshot } = context;
  const plan = planStaticPools({
    ...snapshot,
    claims: context.claims,
    instanceTypes: context.instanceTypes,
    region: context.settings.region,
    nowMs: deps.clock.now().getTime(),
    reservationsTaken: reservationsLaunchedSince(context.claims, context.countedAt),
  });
  const { result, claims } = await launch(deps, context, plan);
  const byName = new Map(claims.map((c) => [c.name, c]));
  const outcome = {
    records: [] as LifecycleRecord[],
    decisions: [...result.decisions],
    events: [] as ClusterEvent[],
  };
  for (const removal of plan.removals) {
    const claim = byName.get(removal.claim);
    if (claim === undefined || !context.isolation.isDue(claim)) continue;
    const pool = snapshot.nodePools.find((p) => p.metadata.name === removal.nodePool);
    const mark = { claim, pool, reason: OVERPROVISIONED, message: removal.message };
    try {
      const marked = await markClaimForDeletion(deps, context.write, mark);
      if (marked === undefined) continue;
      byName.set(marked.claim.name, marked.claim);
      outcome.records.push(marked.record);
      outcome.decisions.push(marked.decision);
      outcome.events.push(...marked.events);
    } catch (err) {
      const failed = await context.isolation.failed({ action: 'ScaleDown', claim }, err);
      if (failed !== undefined) byName.set(failed.name, failed);
    }
  }
  // A claim a limit refused at launch (the cluster's, say) is one node the pool still lacks.
  const refused = result.refusedClaims.map(({ nodePool, message }) => ({
    nodePool,
    missing: 1,
    reason: message,
  }));
  return {
    launches: result.launches,
    failures: result.failures,
    shortfalls: [...plan.shortfalls, ...refused],
    ...outcome,
    claims: [...byName.values()],
  };
}
