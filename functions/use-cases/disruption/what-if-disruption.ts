/**
 * "What would voluntary disruption do now, and why does each other node stay?" — the
 * controller's own decision function over a snapshot, touching nothing. Nodes that the pending
 * pods' plan places pods on count as nominated, as they would in the controller's pass.
 */
import type { ClusterSnapshot } from '../../domain/cluster-snapshot.ts';
import type { CronSchedules } from '../../domain/disruption/budgets.ts';
import { planDisruption } from '../../domain/disruption/disruption-plan.ts';
import type { DisruptionPlan } from '../../domain/disruption/disruption-plan-types.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type { InstanceTypeProvider } from '../../ports/cloud-provider.ts';
import { whatIfInput } from '../what-if-input.ts';

export interface WhatIfDisruptionOptions {
  readonly region: string;
  readonly nowMs: number;
  readonly cron: CronSchedules;
}

export interface WhatIfDisruption {
  readonly plan: DisruptionPlan;
  readonly warnings: readonly string[];
}

export async function whatIfDisruption(
  snapshot: ClusterSnapshot,
  options: WhatIfDisruptionOptions,
  provider: InstanceTypeProvider,
): Promise<WhatIfDisruption> {
  const { input, warnings } = await whatIfInput(snapshot, options.region, provider);
  const pending = planProvisioning(input);
  const nominated = new Set(pending.existingNodes.map((n) => n.name));
  const plan = planDisruption({
    ...input,
    nowMs: options.nowMs,
    cron: options.cron,
    nominated,
    explain: true,
  });
  return { plan, warnings };
}
