/**
 * How a claim's Node goes (core: node/termination removes its finalizer last): the Node is
 * deleted, then Nodesmith's termination finalizer is removed so nothing of Nodesmith's holds it.
 * The finalizer is removed whatever the snapshot showed, as a pass may have added it since; on a
 * node without it the removal changes nothing, and on a node already gone it resolves.
 *
 * A node adopted from Karpenter also carries Karpenter's finalizer, and its Karpenter NodeClaim
 * still stands: both are let go here, so neither waits forever for a Karpenter that has left.
 */
import { KARPENTER_TERMINATION_FINALIZER } from '../../domain/adoption/karpenter-node-claim.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import { TERMINATION_FINALIZER } from '../../domain/termination/finalizer.ts';
import type { Cluster } from '../../ports/cluster.ts';

export type NodeRemoval = Pick<
  Cluster,
  'deleteNode' | 'removeFinalizer' | 'releaseKarpenterNodeClaim'
>;

export async function letNodeGo(
  cluster: NodeRemoval,
  claim: Pick<NodeClaimRecord, 'name' | 'adoptedAt'>,
  nodeName: string | undefined,
): Promise<void> {
  const adopted = claim.adoptedAt !== undefined;
  if (nodeName !== undefined) {
    await cluster.deleteNode(nodeName);
    await cluster.removeFinalizer(nodeName, TERMINATION_FINALIZER);
    if (adopted) await cluster.removeFinalizer(nodeName, KARPENTER_TERMINATION_FINALIZER);
  }
  if (adopted) await cluster.releaseKarpenterNodeClaim(claim.name);
}
