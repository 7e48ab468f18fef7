/**
 * A stored NodeClaim as the scheduler sees it: in-flight capacity with the claim's labels,
 * requirements and taints until its node joins, then the link between the node and its claim
 * (core state/statenode.go). Claims being taken away do not count, and their nodes are seen as
 * being deleted, so their pods are planned for elsewhere (core provisioner.go, Schedule).
 */

import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import { toResourceList } from '../resources.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';
import { claimAnnotations } from './claim-annotations.ts';
import { isGoing } from './claim-deletion.ts';

const PAST_INITIALIZED: ReadonlySet<string> = new Set([
  NodeClaimPhase.initialized,
  NodeClaimPhase.disrupting,
  NodeClaimPhase.draining,
  NodeClaimPhase.terminating,
]);

export function planningClaim(record: NodeClaimRecord): NodeClaim {
  const initialized = PAST_INITIALIZED.has(record.phase);
  return {
    metadata: {
      name: record.name,
      labels: record.labels ?? {},
      creationTimestamp: record.timestamps.Pending,
      ...annotationsOf(record),
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
      ...(record.imageId === undefined ? {} : { imageID: record.imageId }),
      ...(record.capacity === undefined ? {} : { capacity: toResourceList(record.capacity) }),
      ...(record.allocatable === undefined
        ? {}
        : { allocatable: toResourceList(record.allocatable) }),
      conditions: initialized ? [{ type: 'Initialized', status: 'True' }] : [],
      ...(record.pods === undefined ? {} : { lastPodEventTime: record.pods.lastPodEventTime }),
    },
  };
}

/** The nodes with those of claims being deleted (or, as the caller says, about to be) marked deleting. */
export function nodesForPlanning(
  nodes: readonly Node[],
  claims: readonly NodeClaimRecord[],
  going: (claim: NodeClaimRecord) => boolean = isGoing,
): readonly Node[] {
  const gone = claims.filter(going);
  if (gone.length === 0) return nodes;
  const names = new Set(gone.flatMap((c) => (c.nodeName === undefined ? [] : [c.nodeName])));
  const providers = new Set(
    gone.flatMap((c) => (c.providerID === undefined ? [] : [c.providerID])),
  );
  return nodes.map((n) =>
    !n.deleting &&
    (names.has(n.name) || (n.providerID !== undefined && providers.has(n.providerID)))
      ? { ...n, deleting: true }
      : n,
  );
}

function annotationsOf(record: NodeClaimRecord): { annotations?: Record<string, string> } {
  const annotations = claimAnnotations(record);
  return Object.keys(annotations).length === 0 ? {} : { annotations };
}
