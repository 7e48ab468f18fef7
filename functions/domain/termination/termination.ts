/**
 * Graceful termination as a state machine over passes (kubernetes-sigs/karpenter
 * `pkg/controllers/node/termination`; docs/controller.md, termination): for every claim being
 * deleted, the one step that is possible now. `Disrupting` → the node is tainted
 * `karpenter.sh/disrupted:NoSchedule` and left out of load balancers, and the claim moves to
 * `Draining`; `Draining` → pods are evicted tier by tier (a PDB's refusal means "next pass"),
 * deleted at the deadline, and once nothing is left the instance is terminated (`Terminating`);
 * `Terminating` → once the cloud no longer lists the instance, the Node and the claim are removed.
 * A claim whose instance is already gone skips straight to the end. Nothing waits inside a pass.
 */
import type { Node } from '../node.ts';
import type { Pod } from '../pod.ts';
import { NodeClaimPhase, type NodeClaimRecord } from '../state/node-claim-record.ts';
import { compareText } from '../state/order.ts';
import { DISRUPTED_TAINT, sameTaint } from '../taints.ts';
import { drainPlan } from './drain.ts';

export type TerminationAction =
  | {
      readonly kind: 'StartDrain';
      readonly claim: NodeClaimRecord;
      readonly node: Node;
      readonly tainted: boolean;
    }
  | {
      readonly kind: 'Drain';
      readonly claim: NodeClaimRecord;
      readonly node: Node;
      readonly evict: readonly Pod[];
      readonly delete: readonly Pod[];
      readonly waiting: readonly Pod[];
    }
  | { readonly kind: 'TerminateInstance'; readonly claim: NodeClaimRecord; readonly node?: Node }
  | {
      readonly kind: 'Finish';
      readonly claim: NodeClaimRecord;
      readonly node?: Node;
      readonly reason: string;
    };

export interface TerminationInput {
  readonly claims: readonly NodeClaimRecord[];
  readonly nodes: readonly Node[];
  readonly pods: readonly Pod[];
  /** Instance ids the cloud lists now. */
  readonly liveInstances: ReadonlySet<string>;
  readonly nowMs: number;
}

function nodeOf(claim: NodeClaimRecord, nodes: readonly Node[]): Node | undefined {
  return nodes.find(
    (n) =>
      (claim.providerID !== undefined && n.providerID === claim.providerID) ||
      n.name === claim.nodeName,
  );
}

function instanceGone(claim: NodeClaimRecord, live: ReadonlySet<string>): boolean {
  return claim.instanceId !== undefined && !live.has(claim.instanceId);
}

/** What draining the node takes now: evictions and deletes, or terminating the instance. */
export function drainStep(
  claim: NodeClaimRecord,
  node: Node,
  input: Pick<TerminationInput, 'pods' | 'nowMs'>,
): TerminationAction {
  const pods = input.pods.filter((p) => p.nodeName === node.name);
  const deadline = claim.disruption?.terminateBy;
  const plan = drainPlan(
    pods,
    input.nowMs,
    deadline === undefined ? undefined : Date.parse(deadline),
  );
  if (plan.drained) return { kind: 'TerminateInstance', claim, node };
  return {
    kind: 'Drain',
    claim,
    node,
    evict: plan.evict,
    delete: plan.delete,
    waiting: plan.waiting,
  };
}

function stepFor(claim: NodeClaimRecord, input: TerminationInput): TerminationAction | undefined {
  const node = nodeOf(claim, input.nodes);
  const withNode = node === undefined ? {} : { node };
  if (claim.phase === NodeClaimPhase.terminating) {
    return instanceGone(claim, input.liveInstances) || claim.instanceId === undefined
      ? { kind: 'Finish', claim, ...withNode, reason: 'instance terminated' }
      : { kind: 'TerminateInstance', claim, ...withNode };
  }
  if (instanceGone(claim, input.liveInstances)) {
    return { kind: 'Finish', claim, ...withNode, reason: 'instance is already gone' };
  }
  if (node === undefined) return { kind: 'TerminateInstance', claim };
  if (claim.phase === NodeClaimPhase.disrupting) {
    const tainted = node.taints.some((t) => sameTaint(t, DISRUPTED_TAINT));
    return { kind: 'StartDrain', claim, node, tainted };
  }
  return drainStep(claim, node, input);
}

const TERMINATING: ReadonlySet<string> = new Set([
  NodeClaimPhase.disrupting,
  NodeClaimPhase.draining,
  NodeClaimPhase.terminating,
]);

/** One step for each claim being deleted, in name order. */
export function terminationSteps(input: TerminationInput): TerminationAction[] {
  return input.claims
    .filter((c) => TERMINATING.has(c.phase))
    .sort((a, b) => compareText(a.name, b.name))
    .flatMap((claim) => {
      const step = stepFor(claim, input);
      return step === undefined ? [] : [step];
    });
}
