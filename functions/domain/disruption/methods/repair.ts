/**
 * Node auto repair (core: node/health/controller.go; aws: cloudprovider.go `RepairPolicies`): a
 * managed node whose condition has stayed unhealthy past its policy's toleration is replaced
 * forcefully — whatever its pool's budgets, `do-not-disrupt` or its pods' PodDisruptionBudgets
 * say, and without draining: its termination deadline is the moment of the decision. Unless
 * more than 20 % of its NodePool's nodes (rounded up) are unhealthy: then something wider is
 * wrong, and replacing nodes would make it worse, so the node stays and says so. One decision
 * per node, as each node is reconciled on its own; like expiration it launches nothing ahead, and
 * saves nothing.
 */
import { claimIndex } from '../../by-node.ts';
import { formatDuration } from '../../duration.ts';
import { Label } from '../../labels.ts';
import type { Node } from '../../node.ts';
import type { NodeClaim } from '../../node-claim.ts';
import { type DisruptionState, isInitialized } from '../disruption-state.ts';
import { isUnhealthy, type UnhealthyCondition, unhealthyCondition } from '../repair-policies.ts';

/** The share of a pool's nodes that may be unhealthy while repair goes on (`allowedUnhealthyPercent`). */
export const ALLOWED_UNHEALTHY_PERCENT = 20;

/** Karpenter's `NodeRepairBlocked` message for a NodePool past the threshold, word for word. */
export const NODE_REPAIR_BLOCKED_MESSAGE = `more than ${ALLOWED_UNHEALTHY_PERCENT}% nodes are unhealthy in the nodepool`;

interface PoolHealth {
  readonly nodes: number;
  readonly unhealthy: number;
}

/** Every node carrying each pool's label, managed or not, as Karpenter lists them by label. */
function healthByPool(nodes: readonly Node[]): Map<string, PoolHealth> {
  const out = new Map<string, PoolHealth>();
  for (const node of nodes) {
    const pool = node.labels[Label.nodePool];
    if (pool === undefined) continue;
    const health = out.get(pool) ?? { nodes: 0, unhealthy: 0 };
    out.set(pool, {
      nodes: health.nodes + 1,
      unhealthy: health.unhealthy + (isUnhealthy(node) ? 1 : 0),
    });
  }
  return out;
}

/** The threshold rounds up, as a PodDisruptionBudget's percentage does: 1 of 3 nodes may be unhealthy. */
export function allowedUnhealthy(nodes: number): number {
  return Math.ceil((nodes * ALLOWED_UNHEALTHY_PERCENT) / 100);
}

function message(unhealthy: UnhealthyCondition, nowMs: number): string {
  const { condition, tolerationMs } = unhealthy;
  // Only a condition with a lastTransitionTime is ever due (repair-policies.ts).
  const held = formatDuration(nowMs - Date.parse(condition.lastTransitionTime ?? ''));
  return `unhealthy: node condition ${condition.type} has been ${condition.status} for ${held}, past the ${formatDuration(tolerationMs)} it is tolerated; replaced without draining`;
}

interface DueRepair {
  readonly pool: string;
  readonly claim: NodeClaim;
  readonly unhealthy: UnhealthyCondition;
}

/** A managed node past its toleration; undefined for others and for nodes already going. */
function dueForRepair(
  state: DisruptionState,
  node: Node,
  claim: NodeClaim | undefined,
): DueRepair | undefined {
  const pool = node.labels[Label.nodePool];
  if (pool === undefined || claim === undefined) return undefined;
  if (node.deleting || claim.metadata.deletionTimestamp !== undefined) return undefined;
  const unhealthy = unhealthyCondition(node);
  if (unhealthy === undefined || state.nowMs < unhealthy.repairAtMs) return undefined;
  return { pool, claim, unhealthy };
}

function repairNode(state: DisruptionState, node: Node, due: DueRepair): void {
  state.decide(
    {
      method: 'repair',
      reason: 'Unhealthy',
      nodes: [node.name],
      replacements: [],
      savingsPerHour: 0,
      message: message(due.unhealthy, state.nowMs),
      budgets: [],
    },
    // A NotReady node already uses up its pool's allowance; one not initialized never does.
    node.ready && isInitialized(node, due.claim) ? [due.pool] : [],
  );
}

export function repair(state: DisruptionState): void {
  const { nodes, nodeClaims } = state.input;
  const claimOf = claimIndex(nodeClaims);
  const health = healthByPool(nodes);
  for (const node of nodes) {
    const due = dueForRepair(state, node, claimOf(node));
    if (due === undefined) continue;
    const { nodes: count, unhealthy } = health.get(due.pool) ?? { nodes: 0, unhealthy: 0 };
    const allowed = allowedUnhealthy(count);
    if (unhealthy > allowed) {
      state.stay(
        node.name,
        'RepairBlocked',
        `${NODE_REPAIR_BLOCKED_MESSAGE}: ${unhealthy} of NodePool ${due.pool}'s ${count} nodes are, ${allowed} may be`,
      );
    } else repairNode(state, node, due);
  }
}
