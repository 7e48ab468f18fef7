/**
 * A node claim the scheduler is filling: it starts from a NodePool's template with every
 * compatible instance type and narrows its requirements and options with each pod it accepts
 * (core: scheduling/nodeclaim.go). Mutable, but private to one scheduling pass.
 */
import { Label } from '../labels.ts';
import type { Requirement } from '../requirements/requirement.ts';
import { add, compatibilityReason, type Requirements } from '../requirements/requirements.ts';
import { add as addResources, fits, ResourceName, type Resources } from '../resources.ts';
import { firstUntolerated, formatTaint } from '../taints.ts';
import type { ClaimRoom } from './claims-by-load.ts';
import { efficientEnvelope } from './efficiency.ts';
import { HostPortUsage } from './host-ports.ts';
import { changedKeys, explainNoOptions } from './instance-type-filter.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import { unmetMinValues, withMinValues } from './min-values.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { OFFERING_KEYS } from './offering-keys.ts';
import { OptionSet, type Proposal } from './option-set.ts';
import type { CoreRequests, SchedulingPod } from './scheduling-pod.ts';
import { hostnamePlaceholder, type Topology } from './topology/topology.ts';
import { type Unfit, unfit } from './unfit.ts';

const INEFFICIENT = unfit('Resources', 'would grow into a less cost-efficient instance type');

interface Room extends ClaimRoom {
  /** How many times its current requests the claim may hold (growth-bound.ts). */
  readonly scale: number;
}

const EMPTY_ROOM: Room = {
  cpu: 0,
  memory: 0,
  pods: 0,
  efficientCpu: 0,
  efficientMemory: 0,
  efficientPods: 0,
  scale: 0,
};

const NO_PODS: CoreRequests = { cpu: 0, memory: 0, pods: 0, extended: false };

/** What a pod would change on a claim: `canAdd`'s answer, which `add` applies unchanged. */
export interface Placement {
  readonly requirements: Requirements;
  readonly proposal: Proposal;
  readonly total: Resources;
  readonly core: CoreRequests;
}

export class NewNodeClaim {
  readonly template: NodeClaimTemplate;
  readonly hostname: string;
  readonly pods: SchedulingPod[] = [];
  private reqs: Requirements;
  private readonly set: OptionSet;
  private total: Resources = {};
  private core: CoreRequests = NO_PODS;
  private readonly hostPorts = new HostPortUsage();
  private readonly flexible: readonly Requirement[];
  private roomLeft: Room = EMPTY_ROOM;

  constructor(options: {
    readonly template: NodeClaimTemplate;
    readonly index: number;
    readonly allowed?: (option: InstanceTypeOption) => boolean;
  }) {
    this.template = options.template;
    const hostname = hostnamePlaceholder(options.index);
    this.hostname = [...(hostname.get(Label.hostname)?.values ?? [])][0] ?? '';
    this.reqs = add(options.template.requirements, hostname);
    this.set = new OptionSet(options.template.index, options.allowed);
    this.flexible = withMinValues(options.template.requirements);
    this.hostPorts.add(options.template.daemons.hostPorts);
    this.refreshRoom();
  }

  get requirements(): Requirements {
    return this.reqs;
  }

  /** How many pods the claim holds. */
  get load(): number {
    return this.pods.length;
  }

  /** What the claim can still take (see refreshRoom); it changes only when the claim takes a pod. */
  get room(): ClaimRoom {
    return this.roomLeft;
  }

  /** The open options, cheapest first. Materialized on demand: only plan assembly needs the list. */
  get options(): readonly InstanceTypeOption[] {
    return this.set.toArray();
  }

  /** What the claim would launch as: its cheapest open option, now or once `placement` is taken. */
  cheapest(placement?: Placement): InstanceTypeOption | undefined {
    return placement === undefined
      ? this.set.cheapest()
      : this.set.cheapestAfter(placement.proposal);
  }

  /** The price of the cheapest open option, what the claim costs launched; infinite with none. */
  get price(): number {
    return this.template.prices[this.set.cheapestIndex()] ?? Number.POSITIVE_INFINITY;
  }

  /** Whether the pod's requests fit the cheapest open option beside the claim's: no growth needed. */
  fitsCheapest(pod: SchedulingPod): boolean {
    const net = this.set.cheapest()?.net;
    if (net === undefined) return false;
    const { cpu, memory, pods } = this.core;
    const core = pod.core;
    if (cpu + core.cpu > (net.cpu ?? 0) || memory + core.memory > (net.memory ?? 0)) return false;
    if (pods + core.pods > (net.pods ?? 0)) return false;
    return !core.extended || fits(addResources(this.total, pod.requests), net);
  }

  isOpen(index: number): boolean {
    return this.set.isOpen(index);
  }

  get isEmpty(): boolean {
    return this.set.size === 0;
  }

  get requests(): Resources {
    return this.total;
  }

  /**
   * Whether the pod can join, and what would change if it did: the claim's narrowed
   * requirements, the options the pod would remove, the new requests. Changes nothing, on the
   * claim or the Topology, so it can be asked any number of times (core: nodeclaim.go CanAdd).
   */
  canAdd(pod: SchedulingPod, topology: Topology): Placement | Unfit {
    const early = this.quickReject(pod);
    if (early !== undefined) return early;
    const incompatible = compatibilityReason(this.reqs, pod.requirements.all);
    if (incompatible !== undefined) return unfit('Requirements', incompatible);
    const placed = topology.addRequirements(
      pod.pod,
      pod.requirements.strict,
      add(this.reqs, pod.requirements.all),
    );
    if (!placed.ok) return unfit('Topology', placed.reason);
    const total = addResources(this.total, pod.requests);
    const core = sum(this.core, pod.core);
    const proposal = this.set.propose(core, this.keep(placed.requirements, total, core));
    if (proposal.remaining === 0)
      return explainNoOptions(this.set.toArray(), placed.requirements, total);
    if (this.flexible.length > 0) {
      const unmet = unmetMinValues(this.set.toArray(proposal), this.flexible);
      if (unmet !== undefined)
        return unfit('MinValues', `minValues ${unmet.minValues} of ${unmet.key} cannot be met`);
    }
    return { requirements: placed.requirements, proposal, total, core };
  }

  /** Takes the pod as `canAdd` worked out, registering the claim's hostname with its first pod. */
  add(pod: SchedulingPod, placement: Placement, topology: Topology): void {
    if (this.pods.length === 0) topology.register(Label.hostname, this.hostname);
    this.pods.push(pod);
    this.set.accept(placement.proposal);
    this.reqs = placement.requirements;
    this.total = placement.total;
    this.core = placement.core;
    this.refreshRoom();
    this.hostPorts.add(pod.hostPorts);
    topology.record(pod.pod, this.reqs, this.template.taints);
  }

  /** Taints, host ports and size: the checks that need neither requirements nor topology. */
  private quickReject(pod: SchedulingPod): Unfit | undefined {
    const taint = firstUntolerated(pod.tolerations, this.template.taints);
    if (taint !== undefined) return unfit('Taints', `did not tolerate ${formatTaint(taint)}`);
    const portConflict = this.hostPorts.conflict(pod.hostPorts);
    if (portConflict !== undefined) return unfit('HostPorts', portConflict);
    const { cpu, memory, pods } = this.core;
    if (!this.set.fitsCeiling(cpu + pod.core.cpu, memory + pod.core.memory, pods + pod.core.pods)) {
      // A fresh claim deserves the precise reason; a filling one is simply full.
      return this.pods.length === 0
        ? explainNoOptions(this.set.toArray(), this.reqs, addResources(this.total, pod.requests))
        : unfit('Resources', 'exceeds the largest remaining instance type');
    }
    return this.hasRoomFor(pod) ? undefined : INEFFICIENT;
  }

  /**
   * What the claim can still take: the largest open option, and — for pods that can go
   * elsewhere — the envelope of the largest cost-efficient type for the claim's current mix:
   * its CPU:memory ratio (efficiency.ts), bounded by every other resource it asks for, pod
   * slots and devices included (growth-bound.ts). What the cheapest open type already holds is
   * paid for whatever its efficiency. The scheduler compares pods against this before anything
   * else, so a full claim costs a pod a few comparisons.
   */
  private refreshRoom(): void {
    const envelope = efficientEnvelope(this.template.efficiency, this.core.cpu, this.core.memory);
    const scale = this.template.growth.scale(this.total);
    const ceiling = this.set.ceilings;
    const launched = this.set.cheapest()?.net ?? {};
    const { cpu, memory, pods } = this.core;
    this.roomLeft = {
      cpu: ceiling.cpu - cpu,
      memory: ceiling.memory - memory,
      pods: ceiling.pods - pods,
      efficientCpu: grown(ceiling.cpu, envelope.cpu, times(scale, cpu), launched.cpu) - cpu,
      efficientMemory:
        grown(ceiling.memory, envelope.memory, times(scale, memory), launched.memory) - memory,
      efficientPods: grown(ceiling.pods, Infinity, times(scale, pods), launched.pods) - pods,
      scale,
    };
  }

  /** Whether the pod fits the claim's room (see refreshRoom); the claim's first pod always does. */
  hasRoomFor(pod: SchedulingPod): boolean {
    const { core } = pod;
    const room = this.roomLeft;
    if (core.pods > room.pods) return false;
    if (this.pods.length === 0 || pod.coLocated)
      return core.cpu <= room.cpu && core.memory <= room.memory;
    if (core.cpu > room.efficientCpu || core.memory > room.efficientMemory) return false;
    return core.pods <= room.efficientPods && (!core.extended || this.hasDeviceRoomFor(pod));
  }

  /**
   * Whether the pod's other resources (GPUs, devices, ephemeral storage) stay within what an
   * efficient type for the claim's mix holds, or within what the cheapest open type has anyway.
   */
  private hasDeviceRoomFor(pod: SchedulingPod): boolean {
    const launched = this.set.cheapest()?.net ?? {};
    for (const name in pod.requests) {
      const asked = pod.requests[name] ?? 0;
      if (asked <= 0 || CORE_NAMES.has(name)) continue;
      const held = this.total[name] ?? 0;
      if (held + asked > Math.max(times(this.roomLeft.scale, held), launched[name] ?? 0))
        return false;
    }
    return true;
  }

  /** The extra test options must pass when requirements or extended resources changed. */
  private keep(requirements: Requirements, total: Resources, core: CoreRequests) {
    const { typeKeys, masks, options } = this.template;
    const keys = changedKeys(this.reqs, requirements).filter(
      (k) => typeKeys.has(k) || OFFERING_KEYS.has(k),
    );
    if (keys.length === 0 && !core.extended) return undefined;
    const required = keys.filter((k) => typeKeys.has(k)).map((k) => masks.keyMask(k, requirements));
    if (keys.some((k) => OFFERING_KEYS.has(k))) required.push(masks.offeringMask(requirements));
    // One mask asked per option, not each: the test runs for every open option.
    const [first, ...rest] = required;
    const mask =
      first === undefined ? undefined : rest.reduce((all, next) => masks.both(all, next), first);
    if (!core.extended) return (i: number) => mask === undefined || mask[i] === 1;
    return (i: number) =>
      (mask === undefined || mask[i] === 1) && fits(total, options[i]?.net ?? {});
  }
}

const CORE_NAMES: ReadonlySet<string> = new Set([
  ResourceName.cpu,
  ResourceName.memory,
  ResourceName.pods,
]);

/** The most of one resource a claim may grow to: within both bounds, or what is paid for. */
function grown(ceiling: number, envelope: number, scaled: number, paid: number | undefined) {
  return Math.max(Math.min(ceiling, envelope, scaled), paid ?? 0);
}

/** An amount scaled by a claim's growth factor; no bound when the factor is unbounded. */
function times(scale: number, amount: number): number {
  return Number.isFinite(scale) ? scale * amount : Number.POSITIVE_INFINITY;
}

function sum(a: CoreRequests, b: CoreRequests): CoreRequests {
  return {
    cpu: a.cpu + b.cpu,
    memory: a.memory + b.memory,
    pods: a.pods + b.pods,
    extended: a.extended || b.extended,
  };
}
