/**
 * Which pods a drain moves now (core: node/termination/terminator/terminator.go and
 * eviction.go): in four tiers — ordinary pods, ordinary DaemonSet pods, critical pods, critical
 * DaemonSet pods — the next tier only once the one before it is gone. Mirror pods, finished pods
 * and pods that tolerate `karpenter.sh/disrupted` are left to go with the node. Pods annotated
 * `karpenter.sh/do-not-disrupt` are not evicted; once the claim's termination deadline is near
 * enough that a pod's own grace period would end after it, the pod is deleted instead.
 */

import { doNotDisrupt } from '../disruption/do-not-disrupt.ts';
import { isTerminal, type Pod } from '../pod.ts';
import { DISRUPTED_TAINT, tolerates } from '../taints.ts';

/** system-cluster-critical is 2000000000, system-node-critical 2000001000. */
const CRITICAL_PRIORITY = 2_000_000_000;
/** A pod that says nothing gets 30 seconds (core/v1 default). */
const DEFAULT_GRACE_SECONDS = 30;

export interface DrainPlan {
  /** Ask the Eviction API to move these (PDBs decide). */
  readonly evict: readonly Pod[];
  /** Delete these: the termination deadline leaves no time to ask. */
  readonly delete: readonly Pod[];
  /** Pods that keep the node from being drained yet (being deleted, or protected). */
  readonly waiting: readonly Pod[];
  /** Nothing left that must go before the instance is terminated. */
  readonly drained: boolean;
}

/** Pods that go with the node rather than before it. */
function staysToTheEnd(pod: Pod): boolean {
  return (
    isTerminal(pod) || pod.ownerKind === 'Node' || tolerates(pod.spec.tolerations, DISRUPTED_TAINT)
  );
}

function tierOf(pod: Pod): number {
  const critical = (pod.spec.priority ?? 0) >= CRITICAL_PRIORITY ? 2 : 0;
  return critical + (pod.ownerKind === 'DaemonSet' ? 1 : 0);
}

function pastDeadline(pod: Pod, terminateByMs: number | undefined, nowMs: number): boolean {
  if (terminateByMs === undefined) return false;
  const grace = (pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
  return nowMs >= terminateByMs - grace;
}

export function drainPlan(
  pods: readonly Pod[],
  nowMs: number,
  terminateByMs: number | undefined,
): DrainPlan {
  const moving = pods.filter((p) => !staysToTheEnd(p));
  const forced = moving.filter((p) => !p.deleting && pastDeadline(p, terminateByMs, nowMs));
  const deleting = moving.filter((p) => p.deleting);
  const rest = moving.filter((p) => !p.deleting && !forced.includes(p));
  const tier = Math.min(...rest.map(tierOf), ...deleting.map(tierOf));
  const inTier = rest.filter((p) => tierOf(p) === tier);
  const evict = inTier.filter(
    (p) => !doNotDisrupt(p.annotations, p.creationTimestamp, nowMs).active,
  );
  const protectedPods = inTier.filter((p) => !evict.includes(p));
  const waiting = [...deleting, ...protectedPods];
  return {
    evict,
    delete: forced,
    waiting,
    // Past the deadline the instance goes whatever still runs on it (core: TGP elapsed).
    drained:
      (rest.length === 0 && deleting.length === 0 && forced.length === 0) ||
      (terminateByMs !== undefined && nowMs >= terminateByMs),
  };
}
