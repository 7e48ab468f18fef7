/**
 * NodeClaims in flight — launched by an earlier pass, no node registered yet — offered pods as
 * that pass offered them to its new claims: fewest pods first, ties in the order they reached
 * their count. Karpenter tries existing nodes in name order, first fit; on claims that hold no
 * pod yet that re-packs the earlier pass differently, strands the pods the new packing leaves
 * over and launches a node for them, though the claims in flight were planned to hold them all.
 * Offered the same way, the same pods find the same claims.
 */
import type { ExistingNode } from './existing-node.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import type { Topology } from './topology/topology.ts';
import { isUnfit } from './unfit.ts';

export class LaunchingNodes {
  private readonly buckets: Set<ExistingNode>[] = [];

  constructor(nodes: readonly ExistingNode[]) {
    for (const node of nodes) this.bucket(node.pods.length).add(node);
  }

  /** Places the pod on the first node, fewest pods first, that can take it; that node or none. */
  place(pod: SchedulingPod, topology: Topology): ExistingNode | undefined {
    for (const bucket of this.buckets) {
      if (bucket === undefined) continue;
      for (const node of bucket) {
        const answer = node.canAdd(pod, topology);
        if (isUnfit(answer)) continue;
        node.add(pod, answer, topology);
        bucket.delete(node);
        this.bucket(node.pods.length).add(node);
        return node;
      }
    }
    return undefined;
  }

  private bucket(load: number): Set<ExistingNode> {
    let bucket = this.buckets[load];
    if (bucket === undefined) this.buckets[load] = bucket = new Set();
    return bucket;
  }
}
