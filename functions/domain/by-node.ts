/** What belongs to each node: its NodeClaim and its pods, indexed once for a snapshot. */
import type { Node } from './node.ts';
import type { NodeClaim } from './node-claim.ts';
import type { Pod } from './pod.ts';

/** Claims by the node they became, matched on name or provider id. */
export function claimIndex(claims: readonly NodeClaim[]): (node: Node) => NodeClaim | undefined {
  const byName = new Map<string, NodeClaim>();
  const byProvider = new Map<string, NodeClaim>();
  for (const claim of claims) {
    if (claim.status?.nodeName) byName.set(claim.status.nodeName, claim);
    if (claim.status?.providerID) byProvider.set(claim.status.providerID, claim);
  }
  return (node) =>
    byName.get(node.name) ??
    (node.providerID === undefined ? undefined : byProvider.get(node.providerID));
}

/** The bound pods of each node, by node name, those `keep` accepts. */
export function podsByNode(
  pods: readonly Pod[],
  keep: (pod: Pod) => boolean = () => true,
): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (pod.nodeName === undefined || !keep(pod)) continue;
    const list = out.get(pod.nodeName);
    if (list === undefined) out.set(pod.nodeName, [pod]);
    else list.push(pod);
  }
  return out;
}
