/**
 * Instance types an EC2NodeClass's launch settings rule out before any scheduling: they could
 * never boot with the launch template the class makes (aws:
 * pkg/providers/instancetype/compatibility/compatibility.go, `IsCompatibleWithNodeClass`).
 */
import type { EC2NodeClass } from '../node-class.ts';
import type { CatalogEntry } from './catalog.ts';

type Check = (entry: CatalogEntry, nodeClass: EC2NodeClass) => boolean;

/** Connection tracking timeouts are a Nitro feature: other types refuse the launch template. */
const connectionTracking: Check = (entry, nodeClass) =>
  nodeClass.spec.connectionTracking === undefined || entry.hypervisor === 'nitro';

const CHECKS: readonly Check[] = [connectionTracking];

export function isCompatibleWithNodeClass(
  entry: CatalogEntry,
  nodeClass: EC2NodeClass | undefined,
): boolean {
  return nodeClass === undefined || CHECKS.every((check) => check(entry, nodeClass));
}
