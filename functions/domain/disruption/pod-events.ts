/**
 * When a node's pods last changed (core: pkg/controllers/nodeclaim/podevents): `consolidateAfter`
 * counts from the last pod bound to the node or gone from it, so a node that just lost half its
 * pods to a scale-down is left alone for that long before consolidation weighs it. A pod's
 * creation time shows arrivals; departures leave no trace in the cluster, so each claim keeps a
 * digest of the pods it last saw, and a different digest marks a pod event now.
 */
import type { Pod } from '../pod.ts';
import { podKey } from '../pod.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { isReschedulable } from './candidate.ts';
import { stableHash } from './stable-hash.ts';

/** The digest of the pods consolidation would have to move off a node. */
export function podDigest(podsOnNode: readonly Pod[]): string {
  return stableHash(podsOnNode.filter(isReschedulable).map(podKey));
}

/**
 * The claims whose nodes' pods changed since they were last seen, with the new digest and the
 * pod event time; a claim seen for the first time starts from now.
 */
export function podEventUpdates(
  claims: readonly NodeClaimRecord[],
  pods: readonly Pod[],
  now: Date,
): NodeClaimRecord[] {
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (pod.nodeName === undefined) continue;
    const list = byNode.get(pod.nodeName) ?? [];
    list.push(pod);
    byNode.set(pod.nodeName, list);
  }
  return claims.flatMap((claim) => {
    if (claim.nodeName === undefined) return [];
    const digest = podDigest(byNode.get(claim.nodeName) ?? []);
    if (claim.pods?.digest === digest) return [];
    return [{ ...claim, pods: { digest, lastPodEventTime: now.toISOString() } }];
  });
}
