/**
 * A NodePool stays static or dynamic for its whole life: the CRD's transition rule
 * `has(self.replicas) == has(oldSelf.replicas)` refuses an update that sets or unsets
 * `spec.replicas` (core: pkg/apis/v1/nodepool.go). Scaling a dynamic pool is such an update.
 */
import { isStatic, type NodePool } from '../node-pool.ts';

/** Karpenter's CEL message, word for word. */
export const MODE_TRANSITION_MESSAGE =
  'Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes';

/** The refusal of replacing `current` by `next`, or undefined when the update keeps its mode. */
export function modeTransitionRefusal(current: NodePool, next: NodePool): string | undefined {
  return isStatic(current) === isStatic(next) ? undefined : MODE_TRANSITION_MESSAGE;
}
