/**
 * Which pods the provisioner acts on (core: pkg/utils/pod/scheduling.go, IsProvisionable):
 * pending pods, plus the pods of nodes being deleted, which will need a new home. Some pending
 * pods are left to others — DaemonSet and mirror pods, preempting pods, pods with dynamic
 * resource claims — and are reported with the reason.
 */
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import { isTerminal, type Pod } from '../pod.ts';
import { operatorOf } from '../requirements/requirement.ts';
import { NO_REQUIREMENTS } from '../requirements/requirements.ts';
import { podRequirements } from './pod-requirements.ts';
import { preferencesOf } from './preferences.ts';

export interface PendingSelection {
  readonly pending: readonly Pod[];
  readonly ignored: readonly { readonly pod: Pod; readonly reason: string }[];
}

function ignoreReason(pod: Pod, requireUnschedulableMark: boolean): string | undefined {
  if (pod.ownerKind === 'DaemonSet')
    return 'DaemonSet pods are placed by their controller as nodes join';
  if (pod.ownerKind === 'Node') return 'mirror pods are managed by the kubelet';
  if (pod.nominatedNodeName) return `preempting: nominated to node ${pod.nominatedNodeName}`;
  if ((pod.spec.resourceClaimCount ?? 0) > 0)
    return 'pods with dynamic resource claims are not provisioned for';
  if (requireUnschedulableMark && !pod.markedUnschedulable)
    return 'not yet marked Unschedulable by kube-scheduler';
  if (refusesManagedNodes(pod))
    return `selects nodes without ${Label.nodePool}: left to other node groups`;
  return undefined;
}

/**
 * A pod whose requirements — as Karpenter reads them: nodeSelector, the first required term and
 * the heaviest preferred one — say `karpenter.sh/nodepool DoesNotExist` asks not to be
 * provisioned for (core: provisioner.go, validateKarpenterManagedLabelCanExist).
 */
function refusesManagedNodes(pod: Pod): boolean {
  // Only a nodeSelector or a node affinity can ask for anything: most pods have neither.
  if (pod.spec.nodeSelector === undefined && pod.spec.affinity?.nodeAffinity === undefined)
    return false;
  const requirement = podRequirements(pod, preferencesOf(pod), NO_REQUIREMENTS).all.get(
    Label.nodePool,
  );
  return requirement !== undefined && operatorOf(requirement) === 'DoesNotExist';
}

/** Pods that will need to run elsewhere because their node is going away. */
function isReschedulable(pod: Pod, deletingNodes: ReadonlySet<string>): boolean {
  return (
    pod.nodeName !== undefined &&
    deletingNodes.has(pod.nodeName) &&
    !pod.deleting &&
    !isTerminal(pod) &&
    pod.ownerKind !== 'DaemonSet' &&
    pod.ownerKind !== 'Node'
  );
}

export function selectPending(
  pods: readonly Pod[],
  nodes: readonly Node[],
  requireUnschedulableMark: boolean,
): PendingSelection {
  const deletingNodes = new Set(nodes.filter((n) => n.deleting).map((n) => n.name));
  const pending: Pod[] = [];
  const ignored: { pod: Pod; reason: string }[] = [];
  for (const pod of pods) {
    if (isReschedulable(pod, deletingNodes)) {
      pending.push({ ...pod, nodeName: undefined } as Pod);
      continue;
    }
    if (pod.nodeName !== undefined || pod.deleting || isTerminal(pod)) continue;
    const reason = ignoreReason(pod, requireUnschedulableMark);
    if (reason === undefined) pending.push(pod);
    else ignored.push({ pod, reason });
  }
  return { pending, ignored };
}
