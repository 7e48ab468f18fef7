/**
 * Capacity, overhead and allocatable of one instance type:
 * allocatable = capacity − kube-reserved − system-reserved − hard eviction threshold.
 */
import { add, ResourceName, type Resources } from '../resources.ts';
import { capacity } from './capacity.ts';
import type { CatalogEntry } from './catalog.ts';
import { evictionThreshold } from './eviction-threshold.ts';
import { kubeReserved } from './kube-reserved.ts';
import { eniLimitedPods } from './max-pods.ts';
import type { NodeClassSettings } from './node-class-settings.ts';

export interface NodeResources {
  readonly capacity: Resources;
  /** kube-reserved + system-reserved + eviction threshold. */
  readonly overhead: Resources;
  readonly allocatable: Resources;
}

function podsForKubeReserved(
  entry: CatalogEntry,
  settings: NodeClassSettings,
  capacityPods: number,
): number {
  return settings.traits.eniLimitedMemoryOverhead ? eniLimitedPods(entry, 0) : capacityPods;
}

/**
 * Allocatable covers the resources the node has. Overhead-only keys (a `pid` reservation) are
 * kept in `overhead` but do not appear as negative allocatable.
 */
function subtractWithin(from: Resources, amount: Resources): Resources {
  const out: Record<string, number> = {};
  for (const name in from) out[name] = (from[name] ?? 0) - (amount[name] ?? 0);
  return out;
}

export function nodeResources(entry: CatalogEntry, settings: NodeClassSettings): NodeResources {
  const nodeCapacity = capacity(entry, settings);
  const pods = podsForKubeReserved(entry, settings, nodeCapacity[ResourceName.pods] ?? 0);
  const overhead = add(
    kubeReserved(nodeCapacity[ResourceName.cpu] ?? 0, pods, settings.kubeReservedOverrides),
    settings.systemReserved,
    evictionThreshold({
      memoryBytes: nodeCapacity[ResourceName.memory] ?? 0,
      ephemeralStorageBytes: nodeCapacity[ResourceName.ephemeralStorage] ?? 0,
      evictionHard: settings.kubelet?.evictionHard,
    }),
  );
  return { capacity: nodeCapacity, overhead, allocatable: subtractWithin(nodeCapacity, overhead) };
}
