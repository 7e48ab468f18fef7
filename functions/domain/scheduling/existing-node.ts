/**
 * A node that already exists (or is launching) seen as room for pending pods: what is left of
 * its allocatable after the pods bound to it and the daemons it will still run, its labels as
 * requirements, and the taints that apply now (core: scheduling/existingnode.go).
 */
import type { Pod } from '../pod.ts';
import { compatibilityReason, type Requirements } from '../requirements/requirements.ts';
import { fits, type Resources, subtract } from '../resources.ts';
import { firstUntolerated, formatTaint, type Taint } from '../taints.ts';
import { HostPortUsage, hostPortsOf } from './host-ports.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import type { Topology } from './topology/topology.ts';
import { type Unfit, unfit } from './unfit.ts';

export interface ExistingNodeInput {
  readonly name: string;
  readonly requirements: Requirements;
  /** The taints a pod must tolerate now (startup and ephemeral ones already left out where due). */
  readonly taints: readonly Taint[];
  readonly allocatable: Resources;
  readonly boundPods: readonly Pod[];
  readonly boundRequests: Resources;
  /** Requests of daemons that belong on this node but do not run there yet. */
  readonly pendingDaemons: Resources;
}

/** What a pod would change on an existing node: `canAdd`'s answer, which `add` applies. */
export interface NodePlacement {
  readonly available: Resources;
}

export class ExistingNode {
  readonly name: string;
  readonly taints: readonly Taint[];
  readonly pods: SchedulingPod[] = [];
  readonly launching: boolean;
  private reqs: Requirements;
  private left: Resources;
  private readonly hostPorts = new HostPortUsage();

  constructor(input: ExistingNodeInput) {
    this.name = input.name;
    this.taints = input.taints;
    // No pod bound yet: a NodeClaim in flight or a fresh node (launching-nodes.ts).
    this.launching = input.boundPods.length === 0;
    this.reqs = input.requirements;
    this.left = subtract(subtract(input.allocatable, input.boundRequests), input.pendingDaemons);
    for (const pod of input.boundPods) this.hostPorts.add(hostPortsOf(pod));
  }

  /** What the node has left for pending pods. */
  get available(): Resources {
    return this.left;
  }

  /**
   * What the node would have left with the pod, or why the pod cannot go here. Changes nothing,
   * so it can be asked any number of times (core: existingnode.go CanAdd).
   */
  canAdd(pod: SchedulingPod, topology: Topology): NodePlacement | Unfit {
    const taint = firstUntolerated(pod.tolerations, this.taints);
    if (taint !== undefined) return unfit('Taints', `did not tolerate ${formatTaint(taint)}`);
    const portConflict = this.hostPorts.conflict(pod.hostPorts);
    if (portConflict !== undefined) return unfit('HostPorts', portConflict);
    if (!fits(pod.requests, this.left)) return unfit('Resources', 'exceeds node resources');
    // An existing node has the labels it has: a well-known label it lacks cannot be assumed.
    const incompatible = compatibilityReason(this.reqs, pod.requirements.all, false);
    if (incompatible !== undefined) return unfit('Requirements', incompatible);
    const placed = topology.addRequirements(pod.pod, pod.requirements.strict, this.reqs);
    if (!placed.ok) return unfit('Topology', placed.reason);
    return { available: subtract(this.left, pod.requests) };
  }

  /** Takes the pod as `canAdd` worked out. */
  add(pod: SchedulingPod, placement: NodePlacement, topology: Topology): void {
    this.pods.push(pod);
    this.left = placement.available;
    this.hostPorts.add(pod.hostPorts);
    topology.record(pod.pod, this.reqs, this.taints);
  }
}
