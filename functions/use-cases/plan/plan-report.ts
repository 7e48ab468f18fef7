/**
 * The `plan` output contract (docs/design.md §6.2): one JSON object with the new node claims, the
 * pods placed on existing nodes, the pods that cannot be placed, and a summary with the hourly
 * cost.
 */
import type { Labels } from '../../domain/label-selector.ts';
import type { Taint } from '../../domain/taints.ts';
import type { WhatIfPlan } from './what-if-plan.ts';

export interface PlanReport {
  readonly nodeClaims: readonly {
    readonly name: string;
    readonly nodePool: string;
    readonly instanceType: string;
    readonly zone: string;
    readonly capacityType: string;
    readonly pricePerHour: number;
    readonly instanceTypeOptions: readonly string[];
    readonly labels: Labels;
    readonly taints: readonly Taint[];
    readonly pods: readonly string[];
  }[];
  readonly existingNodes: readonly { readonly name: string; readonly pods: readonly string[] }[];
  readonly unschedulable: readonly { readonly pod: string; readonly reason: string }[];
  readonly summary: {
    readonly pendingPods: number;
    readonly newNodeClaims: number;
    readonly pricePerHour: number;
    readonly priceSource: string;
  };
}

/** Prices are money: round away binary noise (0.1 + 0.2) but keep every cent fraction AWS lists. */
function money(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function toPlanReport(result: WhatIfPlan): PlanReport {
  const { plan } = result;
  const nodeClaims = plan.nodeClaims.map((claim) => ({
    name: claim.name,
    nodePool: claim.nodePool,
    instanceType: claim.instanceType.name,
    zone: claim.offering.zone,
    capacityType: claim.offering.capacityType,
    pricePerHour: money(claim.offering.pricePerHour),
    instanceTypeOptions: claim.instanceTypeOptions.map((it) => it.name),
    labels: claim.labels,
    taints: claim.taints.map((t) => ({
      key: t.key,
      ...(t.value === undefined ? {} : { value: t.value }),
      effect: t.effect,
    })),
    pods: claim.pods,
  }));
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
