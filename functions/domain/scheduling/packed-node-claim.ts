/**
 * A node claim a repacking made (repacking.ts): pods that no requirement, topology group, host
 * port or device ties to a node, so the claim keeps its pool's requirements and its options are
 * exactly the types whose room for pods holds theirs. Nothing is narrowed one pod at a time, so
 * it needs none of the scheduler's bookkeeping (new-node-claim.ts).
 */
import type { Requirements } from '../requirements/requirements.ts';
import { ResourceName, type Resources } from '../resources.ts';
import type { FilledNodeClaim } from './filled-node-claim.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import type { SchedulingPod } from './scheduling-pod.ts';

export class PackedNodeClaim implements FilledNodeClaim {
  readonly template: NodeClaimTemplate;
  readonly pods: readonly SchedulingPod[];
  readonly requests: Resources;
  /** The claims packed alike, holding as many pods of each size: they launch alike. */
  readonly alike: object;
  private readonly cpu: number;
  private readonly memory: number;
  private readonly slots: number;

  constructor(template: NodeClaimTemplate, pods: readonly SchedulingPod[], alike: object) {
    this.template = template;
    this.pods = pods;
    this.alike = alike;
    const total: Record<string, number> = {};
    for (const { requests } of pods) {
      for (const name in requests) total[name] = (total[name] ?? 0) + (requests[name] ?? 0);
    }
    this.requests = total;
    this.cpu = total[ResourceName.cpu] ?? 0;
    this.memory = total[ResourceName.memory] ?? 0;
    this.slots = total[ResourceName.pods] ?? 0;
  }

  get requirements(): Requirements {
    return this.template.requirements;
  }

  isOpen(index: number): boolean {
    const { cpu, memory, pods } = this.template.index;
    return (
      (cpu[index] ?? 0) >= this.cpu &&
      (memory[index] ?? 0) >= this.memory &&
      (pods[index] ?? 0) >= this.slots
    );
  }
}
