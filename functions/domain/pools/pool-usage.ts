/**
 * What each NodePool runs after a pass, for the controller's metrics: its nodes (claims with an
 * instance that are not going) and what they cost per hour at the prices they were launched at.
 */
import { isGoing } from '../lifecycle/claim-deletion.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

export interface PoolUsage {
  readonly nodePool: string;
  readonly nodes: number;
  readonly costPerHour: number;
}

export function poolUsage(claims: readonly NodeClaimRecord[]): PoolUsage[] {
  const usage = new Map<string, { nodes: number; costPerHour: number }>();
  for (const claim of claims) {
    if (claim.instanceId === undefined || isGoing(claim)) continue;
    const pool = usage.get(claim.nodePool) ?? { nodes: 0, costPerHour: 0 };
    pool.nodes += 1;
    pool.costPerHour += claim.offering.pricePerHour;
    usage.set(claim.nodePool, pool);
  }
  return [...usage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([nodePool, u]) => ({
      nodePool,
      nodes: u.nodes,
      costPerHour: Math.round(u.costPerHour * 10_000) / 10_000,
    }));
}
