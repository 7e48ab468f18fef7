/**
 * Instance types an EC2NodeClass's launch settings rule out before any scheduling: they could
 * never boot with the launch template the class makes (aws:
 * pkg/providers/instancetype/compatibility/compatibility.go, `IsCompatibleWithNodeClass`).
 */
import type { EC2NodeClass, NetworkInterface } from '../node-class.ts';
import type { CatalogEntry } from './catalog.ts';

type Check = (entry: CatalogEntry, nodeClass: EC2NodeClass) => boolean;

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

const CHECKS: readonly Check[] = [networkInterfaces, connectionTracking];

export function isCompatibleWithNodeClass(
  entry: CatalogEntry,
  nodeClass: EC2NodeClass | undefined,
): boolean {
  return nodeClass === undefined || CHECKS.every((check) => check(entry, nodeClass));
}
