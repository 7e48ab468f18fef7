/**
 * Nodesmith's termination finalizer (core: `karpenter.sh/termination`, added by nodeclaim
 * lifecycle registration and removed by node/termination). Registration puts it on the Node, so
 * a Node someone deletes (`kubectl delete node`) stays until Nodesmith has drained it within its
 * PodDisruptionBudgets and terminationGracePeriod and terminated its instance; removing it is
 * the last step of every termination.
 */
import type { Node } from '../node.ts';

export const TERMINATION_FINALIZER = 'nodesmith.io/termination';

export function hasTerminationFinalizer(node: Node): boolean {
  return node.finalizers?.includes(TERMINATION_FINALIZER) ?? false;
}
