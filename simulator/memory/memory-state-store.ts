/**
 * The in-memory StateStore: the DynamoDB adapter's twin for the CLI (`plan`, `simulate`) and for
 * use-case tests. The shared contract suite runs against both so they cannot drift apart.
 */
import type { ClusterLimits } from '../../functions/domain/limits/cluster-limits.ts';
import type { EC2NodeClass } from '../../functions/domain/node-class.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import type { NodeOverlay } from '../../functions/domain/overlays/node-overlay.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { MemoryDocumentStore } from './memory-document-store.ts';
import { MemoryEventsSeenStore } from './memory-events-seen-store.ts';
import { MemoryLeaseStore } from './memory-lease-store.ts';
import { MemoryNodeClaimStore } from './memory-node-claim-store.ts';
import { MemoryPastDisruptionStore } from './memory-past-disruption-store.ts';
import { MemoryRefusingLimitStore } from './memory-refusing-limit-store.ts';
import { MemoryUnavailableOfferingStore } from './memory-unavailable-offering-store.ts';
import { MemoryWakeWindowStore } from './memory-wake-window-store.ts';

/** A fresh, empty store. */
export function makeMemoryStateStore(): StateStore {
  const lease = new MemoryLeaseStore();
  return {
    nodePools: new MemoryDocumentStore<NodePool>('node pool'),
    nodeClasses: new MemoryDocumentStore<EC2NodeClass>('node class'),
    nodeOverlays: new MemoryDocumentStore<NodeOverlay>('node overlay'),
    clusterLimits: new MemoryDocumentStore<ClusterLimits>('cluster limits'),
    nodeClaims: new MemoryNodeClaimStore(lease),
    unavailableOfferings: new MemoryUnavailableOfferingStore(),
    lease,
    eventsSeen: new MemoryEventsSeenStore(),
    pastDisruptions: new MemoryPastDisruptionStore(),
    refusingLimits: new MemoryRefusingLimitStore(),
    wakeWindow: new MemoryWakeWindowStore(),
  };
}
