/**
 * "What would Nodesmith launch for these pods?" — a plan from a snapshot, priced with the
 * bundled catalog, touching nothing. The `plan` command and the API's dry run both call it.
 */
import type { DaemonSet } from '../../domain/daemon-set.ts';
import type { InstanceType } from '../../domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../domain/instance-types/instance-types.ts';
import { onDemandPrices, type RegionPrices } from '../../domain/instance-types/prices.ts';
import type { Labels } from '../../domain/label-selector.ts';
import type { Node } from '../../domain/node.ts';
import type { NodeClaim } from '../../domain/node-claim.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { Pod } from '../../domain/pod.ts';
import { planProvisioning } from '../../domain/scheduling/plan-provisioning.ts';
import type { ProvisioningPlan } from '../../domain/scheduling/provisioning-plan.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../../domain/volumes.ts';

export interface ClusterSnapshot {
  readonly pods: readonly Pod[];
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
  readonly daemonSets: readonly DaemonSet[];
  readonly persistentVolumeClaims: readonly PersistentVolumeClaim[];
  readonly persistentVolumes: readonly PersistentVolume[];
  readonly storageClasses: readonly StorageClass[];
  readonly runtimeClasses: readonly RuntimeClass[];
  readonly namespaces: ReadonlyMap<string, Labels>;
}

export interface WhatIfOptions {
  readonly region: string;
  /** Zones to launch in; otherwise the EC2NodeClass's subnet zones, otherwise `<region>a/b/c`. */
  readonly zones?: readonly string[];
}

export interface WhatIfPlan {
  readonly plan: ProvisioningPlan;
  readonly region: string;
  /** The region whose bundled prices were used. */
  readonly priceSource: string;
  readonly currency: RegionPrices['currency'];
  /** Things the user should know: estimated prices, missing node classes. */
  readonly warnings: readonly string[];
}

function zonesFor(nodeClass: EC2NodeClass | undefined, options: WhatIfOptions): readonly string[] {
  if (options.zones !== undefined && options.zones.length > 0) return options.zones;
  const subnetZones = (nodeClass?.status?.subnets ?? []).map((s) => s.zone);
  if (subnetZones.length > 0) return [...new Set(subnetZones)].sort();
  return ['a', 'b', 'c'].map((suffix) => `${options.region}${suffix}`);
}

function zoneIdsFor(nodeClass: EC2NodeClass | undefined): Record<string, string> | undefined {
  const subnets = (nodeClass?.status?.subnets ?? []).filter((s) => s.zoneID !== undefined);
  if (subnets.length === 0) return undefined;
  return Object.fromEntries(subnets.map((s) => [s.zone, s.zoneID ?? '']));
}

function instanceTypesByPool(
  snapshot: ClusterSnapshot,
  options: WhatIfOptions,
  prices: RegionPrices,
  warnings: string[],
): Map<string, readonly InstanceType[]> {
  const byClass = new Map<string, readonly InstanceType[]>();
  const out = new Map<string, readonly InstanceType[]>();
  for (const pool of snapshot.nodePools) {
    const className = pool.spec.template.spec.nodeClassRef.name;
    let types = byClass.get(className);
    if (types === undefined) {
      const nodeClass = snapshot.nodeClasses.find((c) => c.metadata.name === className);
      if (nodeClass === undefined && snapshot.nodeClasses.length > 0) {
        warnings.push(
          `EC2NodeClass "${className}" (used by NodePool "${pool.metadata.name}") was not given; assuming AL2023 defaults`,
        );
      }
      const zoneIds = zoneIdsFor(nodeClass);
      types = buildInstanceTypes({
        catalog: BUNDLED_CATALOG,
        region: options.region,
        prices: prices.prices,
        zones: zonesFor(nodeClass, options),
        ...(zoneIds === undefined ? {} : { zoneIds }),
        ...(nodeClass === undefined ? {} : { nodeClass }),
      });
      byClass.set(className, types);
    }
    out.set(pool.metadata.name, types);
  }
  return out;
}

export function whatIfPlan(snapshot: ClusterSnapshot, options: WhatIfOptions): WhatIfPlan {
  const prices = onDemandPrices(options.region);
  const warnings: string[] = [];
  if (prices.priceSource !== options.region) {
    warnings.push(
      `no bundled prices for ${options.region}; using ${prices.priceSource} prices as an estimate`,
    );
  }
  const plan = planProvisioning({
    ...snapshot,
    nodeClasses: snapshot.nodeClasses,
    instanceTypes: instanceTypesByPool(snapshot, options, prices, warnings),
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
