/**
 * "What would Nodesmith launch for these pods?" — a plan from a snapshot, touching nothing, with
 * instance types from whichever InstanceTypeProvider the caller wires. The `plan` command and
 * the API's dry run both call it.
 */

import type { ClusterSnapshot } from '../../domain/cluster-snapshot.ts';
import { onDemandPrices, type RegionPrices } from '../../domain/instance-types/prices.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type { ProvisioningPlan } from '../../domain/scheduling/provisioning-plan.ts';
import type { InstanceTypeProvider } from '../../ports/cloud-provider.ts';
import { whatIfInput } from '../what-if-input.ts';

export interface WhatIfOptions {
  readonly region: string;
}

export interface WhatIfPlan {
  readonly plan: ProvisioningPlan;
  readonly region: string;
  /** The region whose bundled prices were used. */
  readonly priceSource: string;
  readonly currency: RegionPrices['currency'];
  /** Things the user should know: estimated prices, missing node classes, overlays left out. */
  readonly warnings: readonly string[];
}

/**
 * The plan for the snapshot. `instanceTypes` answers for each NodePool's class: the bundled
 * catalog for `nodesmith plan`, EC2 for the API's dry run.
 */
export async function whatIfPlan(
  snapshot: ClusterSnapshot,
  options: WhatIfOptions,
  instanceTypes: InstanceTypeProvider,
): Promise<WhatIfPlan> {
  const prices = onDemandPrices(options.region);
  const estimated =
    prices.priceSource === options.region
      ? []
      : [
          `no bundled prices for ${options.region}; using ${prices.priceSource} prices as an estimate`,
        ];
  const { input, warnings } = await whatIfInput(snapshot, options.region, instanceTypes);
  return {
    plan: planProvisioning(input),
    region: options.region,
    priceSource: prices.priceSource,
    currency: prices.currency,
    warnings: [...estimated, ...warnings],
  };
}
