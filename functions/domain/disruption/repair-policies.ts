/**
 * Node auto repair's policies for the AWS provider (aws: pkg/cloudprovider/cloudprovider.go
 * `RepairPolicies`): a node condition, the status that makes it unhealthy, and how long the node
 * is tolerated so before it is replaced. Ready comes from the kubelet; the others from the EKS
 * node monitoring agent (or any agent that reports them, such as Node Problem Detector).
 */
import type { Node, NodeCondition } from '../node.ts';

export interface RepairPolicy {
  readonly conditionType: string;
  readonly conditionStatus: string;
  readonly tolerationMs: number;
}

const MINUTE = 60_000;

function policy(conditionType: string, conditionStatus: string, minutes: number): RepairPolicy {
  return { conditionType, conditionStatus, tolerationMs: minutes * MINUTE };
}

export const AWS_REPAIR_POLICIES: readonly RepairPolicy[] = [
  policy('Ready', 'False', 30),
  policy('Ready', 'Unknown', 30),
  policy('AcceleratedHardwareReady', 'False', 10),
  policy('StorageReady', 'False', 30),
  policy('NetworkingReady', 'False', 30),
  policy('KernelReady', 'False', 30),
  policy('ContainerRuntimeReady', 'False', 30),
];

/** A condition a policy names as unhealthy, and when its toleration ends. */
export interface UnhealthyCondition {
  readonly condition: NodeCondition;
  readonly tolerationMs: number;
  /** lastTransitionTime plus the toleration, in epoch milliseconds. */
  readonly repairAtMs: number;
}

function matching(node: Node, policy: RepairPolicy): NodeCondition | undefined {
  const condition = node.conditions?.find((c) => c.type === policy.conditionType);
  return condition?.status === policy.conditionStatus ? condition : undefined;
}

/**
 * The unhealthy condition whose toleration ends first (core: node/health/controller.go
 * `findUnhealthyConditions`). A condition without a lastTransitionTime (a hand-written Node; the
 * kubelet always sets one) gives no time to count from, so its toleration never ends: Karpenter
 * would read Go's zero time and replace the node at once, which a dump must not cause.
 */
export function unhealthyCondition(
  node: Node,
  policies: readonly RepairPolicy[] = AWS_REPAIR_POLICIES,
): UnhealthyCondition | undefined {
  let first: UnhealthyCondition | undefined;
  for (const p of policies) {
    const condition = matching(node, p);
    if (condition === undefined) continue;
    const since = Date.parse(condition.lastTransitionTime ?? '');
    const repairAtMs = Number.isNaN(since) ? Number.POSITIVE_INFINITY : since + p.tolerationMs;
    if (first === undefined || repairAtMs < first.repairAtMs)
      first = { condition, tolerationMs: p.tolerationMs, repairAtMs };
  }
  return first;
}

/** Whether any policy's condition is unhealthy now, however recently (core: `areNodesHealthy`). */
export function isUnhealthy(
  node: Node,
  policies: readonly RepairPolicy[] = AWS_REPAIR_POLICIES,
): boolean {
  return policies.some((p) => matching(node, p) !== undefined);
}
