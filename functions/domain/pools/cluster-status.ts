/**
 * The whole cluster for `GET /v1/status`: the nodes every pool runs, what they cost per hour,
 * and each of the cluster's limits with what all pools together use of it.
 */

import { isGoing } from '../lifecycle/claim-deletion.ts';
import { claimCharges } from '../limits/claim-charges.ts';
import type { ClusterLimits } from '../limits/cluster-limits.ts';
import { type LimitUsage, usageReport } from '../limits/limit-scope.ts';
import { parseLimits } from '../limits/parsed-limits.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

export interface ClusterStatus {
  /** Claims with an instance that are not going. */
  readonly nodes: number;
  readonly costPerHour: number;
  readonly limits: Readonly<Record<string, string>>;
  readonly limitUsage: Readonly<Record<string, LimitUsage>>;
}

export function clusterStatus(
  claims: readonly NodeClaimRecord[],
  limits: ClusterLimits | undefined,
): ClusterStatus {
  const running = claims.filter((c) => c.instanceId !== undefined && !isGoing(c));
  const cost = claims.reduce(
    (sum, c) => sum + (c.instanceId === undefined ? 0 : c.offering.pricePerHour),
    0,
  );
  const listed = limits?.spec.limits ?? {};
  return {
    nodes: running.length,
    costPerHour: Math.round(cost * 10_000) / 10_000,
    limits: Object.fromEntries(Object.entries(listed).map(([k, v]) => [k, String(v)])),
    limitUsage: usageReport({ limits: parseLimits(listed) }, claimCharges(claims, new Map(), true)),
  };
}
