/**
 * The `plan` output contract (docs/design.md §6.2): one JSON object with the new node claims, the
 * pods placed on existing nodes, the pods that cannot be placed, and a summary with the hourly
 * cost.
 */
import type {
  ExistingNodePlacement,
  PlannedNodeClaim,
  UnschedulablePod,
} from '../../domain/scheduling/provisioning-plan.ts';
import { money, type NodeClaimReport, nodeClaimReport } from '../node-claim-report.ts';
import type { WhatIfPlan } from './what-if-plan.ts';

/** A new node claim: its name and the labels and taints its node will carry, besides the offering. */
export interface PlanReportClaim
  extends NodeClaimReport,
    Pick<PlannedNodeClaim, 'name' | 'labels' | 'taints'> {}

export interface PlanReport {
  readonly nodeClaims: readonly PlanReportClaim[];
  readonly existingNodes: readonly ExistingNodePlacement[];
  readonly unschedulable: readonly Pick<UnschedulablePod, 'pod' | 'reason'>[];
  readonly summary: {
    readonly pendingPods: number;
    readonly newNodeClaims: number;
    readonly pricePerHour: number;
    readonly priceSource: string;
  };
}

export function toPlanReport(result: WhatIfPlan): PlanReport {
  const { plan } = result;
  const nodeClaims = plan.nodeClaims.map((claim): PlanReportClaim => {
    // The pods come last, after what the node will carry, as the contract lists them.
    const { pods, ...offering } = nodeClaimReport(claim);
    return {
      name: claim.name,
      ...offering,
      labels: claim.labels,
      taints: claim.taints.map((t) => ({
        key: t.key,
        ...(t.value === undefined ? {} : { value: t.value }),
        effect: t.effect,
      })),
      pods,
    };
  });
  return {
    nodeClaims,
    existingNodes: plan.existingNodes,
    unschedulable: plan.unschedulable.map((u) => ({ pod: u.pod, reason: u.reason })),
    summary: {
      pendingPods: plan.pendingPods,
      newNodeClaims: nodeClaims.length,
      pricePerHour: money(nodeClaims.reduce((sum, c) => sum + c.pricePerHour, 0)),
      priceSource: result.priceSource,
    },
  };
}
