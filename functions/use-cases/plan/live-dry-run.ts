/**
 * The API's `POST /v1/plan`: what a controller pass would launch now, touching nothing. The
 * cluster's objects are read live; NodePools, EC2NodeClasses, NodeOverlays, the limits and the
 * claims in flight come from the state store, exactly as the controller reads them, so capacity
 * already on its way is counted and not planned twice.
 */
import { isGoing } from '../../domain/lifecycle/claim-deletion.ts';
import { nodesForPlanning, planningClaim } from '../../domain/lifecycle/planning-claim.ts';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { InstanceTypeProvider } from '../../ports/cloud-provider.ts';
import type { ClusterReader } from '../../ports/cluster.ts';
import type { StateStore } from '../../ports/state-store.ts';
import { limitsInForce } from '../limits/limits-in-force.ts';
import { type PlanReport, toPlanReport } from './plan-report.ts';
import { type WhatIfPlan, whatIfPlan } from './what-if-plan.ts';

export interface LiveDryRunDependencies {
  readonly cluster: Pick<ClusterReader, 'snapshot'>;
  readonly state: Pick<
    StateStore,
    'nodePools' | 'nodeClasses' | 'nodeOverlays' | 'nodeClaims' | 'clusterLimits'
  >;
  readonly instanceTypes: InstanceTypeProvider;
  readonly region: string;
  /** The cluster's limits until some are set through the API. */
  readonly startingLimits?: ClusterLimits;
}

export interface LiveDryRun {
  readonly report: PlanReport;
  readonly warnings: WhatIfPlan['warnings'];
}

export async function liveDryRun(deps: LiveDryRunDependencies): Promise<LiveDryRun> {
  const [live, pools, classes, overlays, claims, inForce] = await Promise.all([
    deps.cluster.snapshot(),
    deps.state.nodePools.list(),
    deps.state.nodeClasses.list(),
    deps.state.nodeOverlays.list(),
    deps.state.nodeClaims.list(),
    limitsInForce(deps.state.clusterLimits, deps.startingLimits),
  ]);
  const inPlay = claims.filter((c) => !isGoing(c));
  const result = await whatIfPlan(
    {
      ...live,
      nodes: nodesForPlanning(live.nodes, claims),
      nodeClaims: inPlay.map(planningClaim),
      nodePools: pools.map((p) => p.document),
      nodeClasses: classes.map((c) => c.document),
      nodeOverlays: overlays.map((o) => o.document),
      ...(inForce.limits === undefined ? {} : { clusterLimits: inForce.limits }),
    },
    { region: deps.region },
    deps.instanceTypes,
  );
  return { report: toPlanReport(result), warnings: result.warnings };
}
