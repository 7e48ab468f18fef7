/**
 * A pool counted as Karpenter counts it when it lets a voluntary command start (core:
 * disruption/helpers.go BuildDisruptionBudgetMapping, which validation.go validateCandidates runs
 * again just before the command starts): its initialized nodes whose instance is not already
 * being terminated, and of those the nodes being deleted, for whatever reason — an interrupted,
 * expired or repaired node as much as a consolidated one — or being replaced, or NotReady.
 * Judged from the claims and Nodes as they are, independently of the controller's own count.
 */

import type { PoolDisruptionCounts } from '../../functions/domain/disruption/budgets.ts';
import { isGoing } from '../../functions/domain/lifecycle/claim-deletion.ts';
import type { Node } from '../../functions/domain/node.ts';
import {
  NodeClaimPhase,
  type NodeClaimRecord,
} from '../../functions/domain/state/node-claim-record.ts';

function counted(claim: NodeClaimRecord, node: Node | undefined): node is Node {
  return (
    node !== undefined &&
    claim.timestamps.Initialized !== undefined &&
    // core: a NodeClaim whose InstanceTerminating condition is true counts no more.
    claim.phase !== NodeClaimPhase.terminating
  );
}

function disrupting(claim: NodeClaimRecord, node: Node): boolean {
  return isGoing(claim) || claim.disruption?.stage === 'Replacing' || node.deleting || !node.ready;
}

/** `claims` are one pool's; `nodes` the cluster's Nodes by name. */
export function budgetCounts(
  claims: readonly NodeClaimRecord[],
  nodes: ReadonlyMap<string, Node>,
): PoolDisruptionCounts {
  let total = 0;
  let going = 0;
  for (const claim of claims) {
    const node = claim.nodeName === undefined ? undefined : nodes.get(claim.nodeName);
    if (!counted(claim, node)) continue;
    total += 1;
    if (disrupting(claim, node)) going += 1;
  }
  return { nodes: total, disrupting: going };
}
