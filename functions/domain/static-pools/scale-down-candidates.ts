/**
 * Which claims a static NodePool gives up when it has more than `replicas` (core:
 * static/deprovisioning/controller.go, getDeprovisioningCandidates): first claims that never
 * launched (no providerID), then empty nodes (no pods, or only DaemonSet pods none of which
 * asks not to be disrupted), then the rest, nodes without an active `do-not-disrupt` pod before
 * those with one, each cheapest to disrupt first (the pods' eviction cost scaled by the share of
 * the node's lifetime left). Ties go by name.
 */
import { podsByNode } from '../by-node.ts';
import { disruptionCost } from '../disruption/candidate.ts';
import { DEFAULT_EXPIRE_AFTER_MS } from '../disruption/disruption-state.ts';
import { doNotDisrupt } from '../disruption/do-not-disrupt.ts';
import { durationOrNever } from '../duration.ts';
import type { NodePool } from '../node-pool.ts';
import type { Pod } from '../pod.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { byName } from '../state/order.ts';

export interface ScaleDownInput {
  readonly nodePool: NodePool;
  /** The pool's active claims. */
  readonly claims: readonly NodeClaimRecord[];
  readonly pods: readonly Pod[];
  readonly nowMs: number;
}

interface RankedNode {
  readonly claim: NodeClaimRecord;
  readonly doNotDisrupt: boolean;
  readonly cost: number;
}

function protects(pod: Pod, nowMs: number): boolean {
  return doNotDisrupt(pod.annotations, pod.creationTimestamp, nowMs).active;
}

function isEmpty(pods: readonly Pod[], nowMs: number): boolean {
  return pods.every((p) => p.ownerKind === 'DaemonSet' && !protects(p, nowMs));
}

/** The share of the claim's `expireAfter` still ahead of it (core: LifetimeRemaining). */
function lifetimeLeft(pool: NodePool, claim: NodeClaimRecord, nowMs: number): number {
  const expireAfter = durationOrNever(pool.spec.template.spec.expireAfter, DEFAULT_EXPIRE_AFTER_MS);
  const created = Date.parse(claim.timestamps.Pending ?? '');
  if (expireAfter === undefined || Number.isNaN(created)) return 1;
  return 1 - (nowMs - created) / expireAfter;
}

function rank(input: ScaleDownInput, claim: NodeClaimRecord, pods: readonly Pod[]): RankedNode {
  return {
    claim,
    doNotDisrupt: pods.some((p) => protects(p, input.nowMs)),
    cost: disruptionCost(pods, lifetimeLeft(input.nodePool, claim, input.nowMs)),
  };
}

function byDisruption(a: RankedNode, b: RankedNode): number {
  if (a.doNotDisrupt !== b.doNotDisrupt) return a.doNotDisrupt ? 1 : -1;
  return a.cost - b.cost || byName(a.claim, b.claim);
}

/** `count` of the pool's active claims, in the order they go. */
export function scaleDownCandidates(input: ScaleDownInput, count: number): NodeClaimRecord[] {
  const unresolved = input.claims.filter((c) => c.providerID === undefined).sort(byName);
  const onNodes = podsByNode(input.pods);
  const resolved = input.claims.filter((c) => c.providerID !== undefined);
  const podsOf = (c: NodeClaimRecord) =>
    c.nodeName === undefined ? [] : (onNodes.get(c.nodeName) ?? []);
  const empty = resolved.filter((c) => isEmpty(podsOf(c), input.nowMs)).sort(byName);
  const busy = resolved
    .filter((c) => !isEmpty(podsOf(c), input.nowMs))
    .map((c) => rank(input, c, podsOf(c)))
    .sort(byDisruption)
    .map((r) => r.claim);
  return [...unresolved, ...empty, ...busy].slice(0, count);
}
