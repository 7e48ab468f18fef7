/** A DaemonSet's pod template: every node it tolerates and selects will run one such pod. */
import type { Labels } from './label-selector.ts';
import type { Pod, PodSpec } from './pod.ts';
import {
  add as addRequirements,
  fromLabels,
  fromNodeSelector,
  type Requirements,
} from './requirements/requirements.ts';
import { firstUntolerated, type Taint, type Toleration } from './taints.ts';

export interface DaemonSet {
  readonly namespace: string;
  readonly name: string;
  readonly template: { readonly labels: Labels; readonly spec: PodSpec };
}

/** Daemons ignore PreferNoSchedule, so their templates are judged as if they tolerated it. */
const PREFER_NO_SCHEDULE: Toleration = { operator: 'Exists', effect: 'PreferNoSchedule' };

export function daemonTolerates(daemonSet: DaemonSet, taints: readonly Taint[]): boolean {
  return (
    firstUntolerated([...daemonSet.template.spec.tolerations, PREFER_NO_SCHEDULE], taints) ===
    undefined
  );
}

/** The node requirements a daemon's pods need: nodeSelector plus one of its OR-ed affinity terms. */
export function daemonTerms(daemonSet: DaemonSet): Requirements[] {
  const spec = daemonSet.template.spec;
  const selector = fromLabels(spec.nodeSelector);
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [selector];
  return terms.map((t) => addRequirements(selector, fromNodeSelector(t.matchExpressions)));
}

/** One pod of the DaemonSet, as its template describes it. */
export function daemonPod(daemonSet: DaemonSet): Pod {
  return {
    uid: `${daemonSet.namespace}/${daemonSet.name}`,
    namespace: daemonSet.namespace,
    name: daemonSet.name,
    labels: daemonSet.template.labels,
    annotations: {},
    deleting: false,
    spec: daemonSet.template.spec,
  };
}

/** Whether a pod is one of this DaemonSet's (the domain keeps owner kinds, not owner names). */
export function isDaemonPodOf(daemonSet: DaemonSet, pod: Pod): boolean {
  return (
    pod.ownerKind === 'DaemonSet' &&
    pod.namespace === daemonSet.namespace &&
    Object.entries(daemonSet.template.labels).every(([k, v]) => pod.labels[k] === v)
  );
}
