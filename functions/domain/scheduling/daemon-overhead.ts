/**
 * The DaemonSet pods a new node will run, per instance type of a NodePool: a daemon counts when
 * its pod template tolerates the pool's taints and its required node affinity (one of its OR-ed
 * terms) fits the pool and the instance type. Karpenter sizes new nodes with the smallest such
 * overhead among groups of types; counting per type is the exact form of the same idea
 * (core: scheduling/scheduler.go, isDaemonPodCompatible).
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import type { PodSpec } from '../pod.ts';
import {
  add as addRequirements,
  fromLabels,
  fromNodeSelector,
  intersectsReason,
  isCompatible,
  type Requirements,
} from '../requirements/requirements.ts';
import { add, type Resources } from '../resources.ts';
import { firstUntolerated, type Taint, type Toleration } from '../taints.ts';
import { type HostPort, hostPortsOf } from './host-ports.ts';
import { podRequests } from './pod-requests.ts';

/** Daemons ignore PreferNoSchedule, so their templates are judged as if they tolerated it. */
const PREFER_NO_SCHEDULE: Toleration = { operator: 'Exists', effect: 'PreferNoSchedule' };

export interface DaemonOverhead {
  /** Requests of the daemons that run on a node of each instance type, by type name. */
  readonly byInstanceType: ReadonlyMap<string, Resources>;
  /** Host ports every daemon on the pool's nodes holds. */
  readonly hostPorts: readonly HostPort[];
}

function daemonTerms(spec: PodSpec): Requirements[] {
  const selector = fromLabels(spec.nodeSelector);
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [selector];
  return terms.map((t) => addRequirements(selector, fromNodeSelector(t.matchExpressions)));
}

function asDaemonPod(daemonSet: DaemonSet) {
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

export function daemonOverhead(options: {
  readonly daemonSets: readonly DaemonSet[];
  readonly taints: readonly Taint[];
  readonly requirements: Requirements;
  readonly instanceTypes: readonly InstanceType[];
}): DaemonOverhead {
  const tolerant = options.daemonSets.filter(
    (ds) =>
      firstUntolerated([...ds.template.spec.tolerations, PREFER_NO_SCHEDULE], options.taints) ===
      undefined,
  );
  const candidates = tolerant
    .map((ds) => ({
      ds,
      terms: daemonTerms(ds.template.spec).filter((t) => isCompatible(options.requirements, t)),
    }))
    .filter((c) => c.terms.length > 0)
    .map((c) => ({ ...c, requests: podRequests(asDaemonPod(c.ds)) }));
  const byInstanceType = new Map<string, Resources>();
  for (const it of options.instanceTypes) {
    const running = candidates.filter((c) =>
      c.terms.some((t) => intersectsReason(it.requirements, t) === undefined),
    );
    byInstanceType.set(it.name, add(...running.map((c) => c.requests)));
  }
  return { byInstanceType, hostPorts: candidates.flatMap((c) => hostPortsOf(asDaemonPod(c.ds))) };
}
