/**
 * A NodePool whose EC2NodeClass does not exist. Karpenter's readiness controller reports it
 * `NodeClassReady=False`, reason `NodeClassNotFound` (core
 * `pkg/controllers/nodepool/readiness/controller.go`), so it is not ready and launches nothing.
 * The controller's pass, the what-if commands, pod events and `GET /v1/status` say it in the
 * same words, naming the class, since applying it is what makes the pool launch again.
 */
import type { Condition } from '../condition.ts';
import type { NodePool } from '../node-pool.ts';

export const NODE_CLASS_NOT_FOUND = 'NodeClassNotFound';

/** What is missing, named from the pool's `nodeClassRef`. */
export function nodeClassNotFoundMessage(pool: NodePool): string {
  return `EC2NodeClass "${pool.spec.template.spec.nodeClassRef.name}" not found`;
}

/** The Ready condition a pool whose class is missing reports. */
export function nodeClassNotFound(pool: NodePool): Condition {
  return {
    type: 'Ready',
    status: 'False',
    reason: NODE_CLASS_NOT_FOUND,
    message: nodeClassNotFoundMessage(pool),
  };
}
