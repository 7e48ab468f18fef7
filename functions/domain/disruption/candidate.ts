/**
 * A managed node as voluntary disruption sees it (core: disruption/types.go, Candidate): its
 * NodePool and claim, the pods that would need another home, what its offering costs, and how
 * much it would cost to disrupt.
 */
import type { InstanceNetwork } from '../instance-network.ts';
import type { InstanceType } from '../instance-type.ts';
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import type { EC2NodeClass } from '../node-class.ts';
import type { NodePool } from '../node-pool.ts';
import { isTerminal, type Pod } from '../pod.ts';
import { PER_NODE_BASE_DISRUPTION_COST } from './balanced-score.ts';

export interface Candidate {
  readonly node: Node;
  readonly claim?: NodeClaim;
  readonly pool: NodePool;
  readonly nodeClass?: EC2NodeClass;
  /** What its instance was launched into, where known (DisruptionInput.networks). */
  readonly network?: InstanceNetwork;
  /** Pods that must run elsewhere if the node goes: not DaemonSet, mirror, terminal or deleting. */
  readonly pods: readonly Pod[];
  readonly instanceType?: InstanceType;
  /** The price of the exact offering (type, zone, capacity type); undefined when not in the catalog. */
  readonly pricePerHour?: number;
  readonly capacityType?: string;
  readonly createdMs: number;
  /** Lower goes first (core: utils/disruption/disruption.go). */
  readonly disruptionCost: number;
  /** What moving its pods costs, for `Balanced` scores (core: disruption/types.go). */
  readonly rescheduleDisruptionCost: number;
}

/** Pods whose eviction leaves them needing a node (core: pod.IsReschedulable). */
export function isReschedulable(pod: Pod): boolean {
  return (
    !pod.deleting && !isTerminal(pod) && pod.ownerKind !== 'DaemonSet' && pod.ownerKind !== 'Node'
  );
}

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * One pod's eviction cost (core: utils/disruption EvictionCost): 1, nudged by its
 * `pod-deletion-cost` annotation (÷2²⁷) and priority (÷2²⁵), within [-10, 10].
 */
export function evictionCost(pod: Pod): number {
  const deletionCost = Number(pod.annotations[DELETION_COST] ?? 0);
  const cost =
    1 +
    (Number.isFinite(deletionCost) ? deletionCost : 0) / 2 ** 27 +
    (pod.spec.priority ?? 0) / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}

/** The pods' eviction cost, scaled by the share of the node's lifetime left: expiring nodes go first. */
export function disruptionCost(pods: readonly Pod[], lifetimeLeft: number): number {
  const cost = pods.reduce((sum, pod) => sum + evictionCost(pod), 0);
  return cost * Math.min(1, Math.max(0, lifetimeLeft));
}

/**
 * The node's base cost plus its pods' positive eviction costs (core: disruption/types.go
 * computeRescheduleDisruptionCost): a pod cheaper to evict than nothing takes nothing off.
 */
export function rescheduleDisruptionCost(pods: readonly Pod[]): number {
  return pods.reduce(
    (sum, pod) => sum + Math.max(0, evictionCost(pod)),
    PER_NODE_BASE_DISRUPTION_COST,
  );
}

/** The price of the node's offering in its pool's catalog. */
export function offeringPrice(node: Node, types: readonly InstanceType[] | undefined) {
  const name = node.labels[Label.instanceType];
  const instanceType = types?.find((it) => it.name === name);
  const zone = node.labels[Label.zone];
  const capacityType = node.labels[Label.capacityType];
  const offering = instanceType?.offerings.find(
    (o) => o.zone === zone && o.capacityType === capacityType,
  );
  return { instanceType, pricePerHour: offering?.pricePerHour, capacityType };
}

/** Candidates in the order methods consider them: cheapest to disrupt, then by name. */
export function byDisruptionCost(a: Candidate, b: Candidate): number {
  return (
    a.disruptionCost - b.disruptionCost ||
    (a.node.name < b.node.name ? -1 : a.node.name > b.node.name ? 1 : 0)
  );
}
