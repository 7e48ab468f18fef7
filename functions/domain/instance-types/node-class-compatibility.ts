/**
 * Instance types an EC2NodeClass's launch settings rule out before any scheduling: they could
 * never boot with the launch template the class makes (aws:
 * pkg/providers/instancetype/compatibility/compatibility.go, `IsCompatibleWithNodeClass`).
 */
import type { EC2NodeClass, NetworkInterface } from '../node-class.ts';
import type { PlacementGroup } from '../placement-group.ts';
import type { CatalogEntry } from './catalog.ts';

type Check = (entry: CatalogEntry, nodeClass: EC2NodeClass, group?: PlacementGroup) => boolean;

/** Connection tracking timeouts are a Nitro feature: other types refuse the launch template. */
const connectionTracking: Check = (entry, nodeClass) =>
  nodeClass.spec.connectionTracking === undefined || entry.hypervisor === 'nitro';

/**
 * The interface's card exists and takes an interface at its device index. The few types whose
 * ENI limits are unpublished (trn2.48xlarge, hpc*) are given the benefit of the doubt.
 */
function fitsCard(entry: CatalogEntry, ni: NetworkInterface): boolean {
  if (entry.maxEnis === undefined) return true;
  return ni.networkCardIndex < (entry.networkCards ?? 1) && ni.deviceIndex < entry.maxEnis;
}

/**
 * The class's interfaces fit the type's cards and device slots, and its `efa-only` ones its EFA
 * interfaces. Which types lack ENA is not in the catalog, so that check of Karpenter's is not made.
 */
const networkInterfaces: Check = (entry, nodeClass) => {
  const interfaces = nodeClass.spec.networkInterfaces;
  if (interfaces === undefined) return true;
  if (!interfaces.every((ni) => fitsCard(entry, ni))) return false;
  const efaOnly = interfaces.filter((ni) => ni.interfaceType === 'efa-only').length;
  return efaOnly === 0 || efaOnly <= (entry.maxEfaInterfaces ?? 0);
};

/**
 * The type launches into the class's placement group's strategy (aws: compatibility.go
 * `placementGroupCompatibility`): EC2 refuses a burstable type in a cluster group, say. A type
 * whose strategies are not known (the bundled catalog's) is given the benefit of the doubt.
 */
const placementGroupStrategy: Check = (entry, _nodeClass, group) =>
  group === undefined ||
  entry.placementStrategies === undefined ||
  entry.placementStrategies.includes(group.strategy);

const CHECKS: readonly Check[] = [networkInterfaces, placementGroupStrategy, connectionTracking];

/** `group` is the placement group the class's selector resolves to, when it has one. */
export function isCompatibleWithNodeClass(
  entry: CatalogEntry,
  nodeClass: EC2NodeClass | undefined,
  group?: PlacementGroup,
): boolean {
  return nodeClass === undefined || CHECKS.every((check) => check(entry, nodeClass, group));
}
