/**
 * A node claim the scheduler is filling: it starts from a NodePool's template with every
 * compatible instance type and narrows its requirements and options with each pod it accepts
 * (core: scheduling/nodeclaim.go). Mutable, but private to one scheduling pass.
 */
import { Label } from '../labels.ts';
import type { Requirement } from '../requirements/requirement.ts';
import { add, compatibilityReason, type Requirements } from '../requirements/requirements.ts';
import { add as addResources, fits, type Resources } from '../resources.ts';
import { firstUntolerated, formatTaint } from '../taints.ts';
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

const NO_PODS: CoreRequests = { cpu: 0, memory: 0, pods: 0, extended: false };

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

  constructor(options: {
    readonly template: NodeClaimTemplate;
    readonly index: number;
    readonly allowed?: (option: InstanceTypeOption) => boolean;
    readonly topology: Topology;
  }) {
    this.template = options.template;
    const hostname = hostnamePlaceholder(options.index);
    this.hostname = [...(hostname.get(Label.hostname)?.values ?? [])][0] ?? '';
    this.reqs = add(options.template.requirements, hostname);
    this.set = new OptionSet(options.template.index, options.allowed);
    this.flexible = withMinValues(options.template.requirements);
    this.hostPorts.add(options.template.daemons.hostPorts);
    options.topology.register(Label.hostname, this.hostname);
  }

  get requirements(): Requirements {
    return this.reqs;
  }

  /** The open options, cheapest first. Materialized on demand: only plan assembly needs the list. */
  get options(): readonly InstanceTypeOption[] {
    return this.set.toArray();
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

  /** Forgets the placeholder hostname of a claim that was never opened. */
  discard(topology: Topology): void {
    topology.unregister(Label.hostname, this.hostname);
  }

  /** Adds the pod when it fits, or says why it does not. */
  tryAdd(pod: SchedulingPod, topology: Topology): Unfit | undefined {
    const taint = firstUntolerated(pod.tolerations, this.template.taints);
    if (taint !== undefined) return unfit('Taints', `did not tolerate ${formatTaint(taint)}`);
    const portConflict = this.hostPorts.conflict(pod.hostPorts);
    if (portConflict !== undefined) return unfit('HostPorts', portConflict);
    if (
      !this.set.fitsCeiling(
        this.core.cpu + pod.core.cpu,
        this.core.memory + pod.core.memory,
        this.core.pods + pod.core.pods,
      )
    ) {
      // A fresh claim deserves the precise reason; a filling one is simply full.
      return this.pods.length === 0
        ? explainNoOptions(this.set.toArray(), this.reqs, addResources(this.total, pod.requests))
        : unfit('Resources', 'exceeds the largest remaining instance type');
    }
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
    this.commit(pod, { requirements: placed.requirements, proposal, total, core }, topology);
    return undefined;
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
    return (i: number) =>
      required.every((mask) => mask[i] === 1) &&
      (!core.extended || fits(total, options[i]?.net ?? {}));
  }

  private commit(
    pod: SchedulingPod,
    next: { requirements: Requirements; proposal: Proposal; total: Resources; core: CoreRequests },
    topology: Topology,
  ): void {
    this.pods.push(pod);
    this.set.accept(next.proposal);
    this.reqs = next.requirements;
    this.total = next.total;
    this.core = next.core;
    this.hostPorts.add(pod.hostPorts);
    topology.record(pod.pod, this.reqs, this.template.taints);
  }
}

function sum(a: CoreRequests, b: CoreRequests): CoreRequests {
  return {
    cpu: a.cpu + b.cpu,
    memory: a.memory + b.memory,
    pods: a.pods + b.pods,
    extended: a.extended || b.extended,
  };
}
