/**
 * A stored NodeClaim as the scheduler sees it: in-flight capacity with the claim's labels,
 * requirements and taints until its node joins, then the link between the node and its claim
 * (core state/statenode.go). Claims being taken away do not count.
 */
import type { NodeClaim } from '../node-claim.ts';
import { toResourceList } from '../resources.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';

const PAST_INITIALIZED: ReadonlySet<string> = new Set([
  NodeClaimPhase.initialized,
  NodeClaimPhase.disrupting,
  NodeClaimPhase.draining,
  NodeClaimPhase.terminating,
]);

function isGoing(record: NodeClaimRecord): boolean {
  return record.phase === NodeClaimPhase.draining || record.phase === NodeClaimPhase.terminating;
}

export function planningClaim(record: NodeClaimRecord): NodeClaim {
  const initialized = PAST_INITIALIZED.has(record.phase);
  return {
    metadata: {
      name: record.name,
      labels: record.labels ?? {},
      creationTimestamp: record.timestamps.Pending,
      ...(isGoing(record) ? { deletionTimestamp: record.timestamps[record.phase] } : {}),
    },
    spec: {
      requirements: record.requirements,
      taints: record.taints ?? [],
      startupTaints: record.startupTaints ?? [],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: record.nodeClass },
      ...(record.requests === undefined
        ? {}
        : { resources: { requests: toResourceList(record.requests) } }),
    },
    status: {
      ...(record.nodeName === undefined ? {} : { nodeName: record.nodeName }),
      ...(record.providerID === undefined ? {} : { providerID: record.providerID }),
      ...(record.capacity === undefined ? {} : { capacity: toResourceList(record.capacity) }),
      ...(record.allocatable === undefined
        ? {}
        : { allocatable: toResourceList(record.allocatable) }),
      conditions: initialized ? [{ type: 'Initialized', status: 'True' }] : [],
    },
  };
}
