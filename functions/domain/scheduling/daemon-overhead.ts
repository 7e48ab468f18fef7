/**
 * The DaemonSet pods a new node will run, per instance type of a NodePool: a daemon counts when
 * its pod template tolerates the pool's taints and its required node affinity (one of its OR-ed
 * terms) fits the pool and the instance type. Karpenter sizes new nodes with the smallest such
 * overhead among groups of types; counting per type is the exact form of the same idea
 * (core: scheduling/scheduler.go, isDaemonPodCompatible).
 */
import { type DaemonSet, daemonPod, daemonTerms, daemonTolerates } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import { intersectsReason, isCompatible, type Requirements } from '../requirements/requirements.ts';
import { add, type Resources } from '../resources.ts';
import type { Taint } from '../taints.ts';
import { type HostPort, hostPortsOf } from './host-ports.ts';
import { podRequests } from './pod-requests.ts';

export interface DaemonOverhead {
  /** Requests of the daemons that run on a node of each instance type, by type name. */
  readonly byInstanceType: ReadonlyMap<string, Resources>;
  /** Host ports every daemon on the pool's nodes holds. */
  readonly hostPorts: readonly HostPort[];
}

export function daemonOverhead(options: {
  readonly daemonSets: readonly DaemonSet[];
  readonly taints: readonly Taint[];
  readonly requirements: Requirements;
  readonly instanceTypes: readonly InstanceType[];
}): DaemonOverhead {
  const tolerant = options.daemonSets.filter((ds) => daemonTolerates(ds, options.taints));
  const candidates = tolerant
    .map((ds) => ({
      ds,
      terms: daemonTerms(ds).filter((t) => isCompatible(options.requirements, t)),
    }))
    .filter((c) => c.terms.length > 0)
    .map((c) => ({ ...c, requests: podRequests(daemonPod(c.ds)) }));
  const byInstanceType = new Map<string, Resources>();
  for (const it of options.instanceTypes) {
    const running = candidates.filter((c) =>
      c.terms.some((t) => intersectsReason(it.requirements, t) === undefined),
    );
    byInstanceType.set(it.name, add(...running.map((c) => c.requests)));
  }
  return { byInstanceType, hostPorts: candidates.flatMap((c) => hostPortsOf(daemonPod(c.ds))) };
}
