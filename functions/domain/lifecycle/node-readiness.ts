/**
 * When a node has joined as its claim's node (registration) and when it is ready for pods
 * (initialization), as Karpenter decides them (core nodeclaim/lifecycle/registration.go and
 * initialization.go).
 */
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { isKnownEphemeralTaint, matchTaint, type Taint } from '../taints.ts';
import { TERMINATION_FINALIZER } from '../termination/finalizer.ts';
import { claimAnnotations } from './claim-annotations.ts';

/** Baked into the kubelet's `registerWithTaints`; registration removes it. */
export const UNREGISTERED_TAINT: Taint = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };

/** Resources every node reports; any other requested one (a GPU) must appear before pods can use it. */
const NODE_RESOURCES: ReadonlySet<string> = new Set(['cpu', 'memory', 'pods', 'ephemeral-storage']);

/** What registration writes on the node. */
export interface RegistrationPatch {
  readonly labels: Readonly<Record<string, string>>;
  /** The claim's annotations: its template's and the hashes it was made with. */
  readonly annotations: Readonly<Record<string, string>>;
  /** The claim's taints; none when the node opts out with `karpenter.sh/do-not-sync-taints`. */
  readonly addTaints: readonly Taint[];
  readonly removeTaints: readonly Taint[];
  /**
   * The termination finalizer, so a deleted node is drained before it goes; none on a node
   * already being deleted, which takes no new finalizer.
   */
  readonly finalizers: readonly string[];
}

export function registrationPatch(claim: NodeClaimRecord, node: Node): RegistrationPatch {
  const syncTaints = node.labels[Label.doNotSyncTaints] !== 'true';
  return {
    labels: { ...claim.labels, [Label.registered]: 'true' },
    annotations: claimAnnotations(claim),
    addTaints: syncTaints ? [...(claim.taints ?? []), ...(claim.startupTaints ?? [])] : [],
    removeTaints: [UNREGISTERED_TAINT],
    finalizers: node.deleting ? [] : [TERMINATION_FINALIZER],
  };
}

/**
 * Why the node is not initialized yet, or undefined when it is: it must be Ready, its startup
 * and known ephemeral taints gone, and every extended resource its pods asked for registered.
 */
export function initializationBlocker(claim: NodeClaimRecord, node: Node): string | undefined {
  if (!node.ready) return 'node is not Ready';
  const startup = node.taints.find((t) =>
    (claim.startupTaints ?? []).some((s) => matchTaint(s, t)),
  );
  if (startup !== undefined) return `startup taint ${startup.key} is still on the node`;
  const ephemeral = node.taints.find(isKnownEphemeralTaint);
  if (ephemeral !== undefined) return `taint ${ephemeral.key} is still on the node`;
  const missing = Object.entries(claim.requests ?? {}).find(
    ([name, amount]) =>
      amount > 0 && !NODE_RESOURCES.has(name) && (node.allocatable[name] ?? 0) <= 0,
  );
  if (missing !== undefined) return `resource ${missing[0]} is not registered yet`;
  return undefined;
}
