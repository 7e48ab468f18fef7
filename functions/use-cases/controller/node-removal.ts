/**
 * How a claim's Node goes (core: node/termination removes its finalizer last): the Node is
 * deleted, then Nodesmith's termination finalizer is removed so nothing of Nodesmith's holds it.
 * The finalizer is removed whatever the snapshot showed, as a pass may have added it since; on a
 * node without it the removal changes nothing, and on a node already gone it resolves.
 */
import { TERMINATION_FINALIZER } from '../../domain/termination/finalizer.ts';
import type { NodeWriter } from '../../ports/cluster.ts';

export async function letNodeGo(
  nodes: Pick<NodeWriter, 'deleteNode' | 'removeFinalizer'>,
  nodeName: string,
): Promise<void> {
  await nodes.deleteNode(nodeName);
  await nodes.removeFinalizer(nodeName, TERMINATION_FINALIZER);
}
