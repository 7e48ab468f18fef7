/**
 * "What would Nodesmith launch for these pods?" — a plan from a snapshot, touching nothing, with
 * instance types from whichever InstanceTypeProvider the caller wires. The `plan` command and
 * the API's dry run both call it.
 */

import type { DaemonSet } from '../../domain/daemon-set.ts';
import { onDemandPrices, type RegionPrices } from '../../domain/instance-types/prices.ts';
import type { Labels } from '../../domain/label-selector.ts';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { Node } from '../../domain/node.ts';
import type { NodeClaim } from '../../domain/node-claim.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { NodeOverlay } from '../../domain/overlays/node-overlay.ts';
import type { Pod } from '../../domain/pod.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type { ProvisioningPlan } from '../../domain/scheduling/provisioning-plan.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../../domain/volumes.ts';
import type { InstanceTypeProvider } from '../../ports/cloud-provider.ts';
import { withDefaultNodeClasses } from '../default-node-classes.ts';
import { instanceTypesByPool, overlayConflictWarning } from '../instance-types-by-pool.ts';
import { checkNodeClasses } from '../node-class-not-found.ts';

export interface PlanningSnapshot {
  readonly pods: readonly Pod[];
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
  /** Laid over the instance types of the pools they select; none when absent. */
  readonly nodeOverlays?: readonly NodeOverlay[];
  readonly daemonSets: readonly DaemonSet[];
  readonly persistentVolumeClaims: readonly PersistentVolumeClaim[];
  readonly persistentVolumes: readonly PersistentVolume[];
  readonly storageClasses: readonly StorageClass[];
  readonly runtimeClasses: readonly RuntimeClass[];
  readonly namespaces: ReadonlyMap<string, Labels>;
  /** Limits over every pool together (`plan --limits FILE` or the state table's). */
  readonly clusterLimits?: ClusterLimits;
}

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
  snapshot: PlanningSnapshot,
  options: WhatIfOptions,
  instanceTypes: InstanceTypeProvider,
): Promise<WhatIfPlan> {
  const prices = onDemandPrices(options.region);
  const warnings: string[] = [];
  if (prices.priceSource !== options.region) {
    warnings.push(
      `no bundled prices for ${options.region}; using ${prices.priceSource} prices as an estimate`,
    );
  }
  const { nodePools, warnings: missing } = checkNodeClasses(snapshot);
  warnings.push(...missing);
  const nodeClasses = withDefaultNodeClasses(snapshot);
  const types = await instanceTypesByPool({ ...snapshot, nodePools, nodeClasses }, instanceTypes);
  warnings.push(...types.overlayConflicts.map(overlayConflictWarning));
  const plan = planProvisioning({
    ...snapshot,
    nodePools,
    instanceTypes: types.byPool,
    region: options.region,
  });
  return {
    plan,
    region: options.region,
    priceSource: prices.priceSource,
    currency: prices.currency,
    warnings,
  };
}
