/**
 * The bin-packer: places pending pods on existing nodes first (NodeClaims in flight last, fewest
 * pods first), then on node claims already opened in this pass (fewest pods first), then opens a claim from the first NodePool that can
 * take the pod. A pod that fits nowhere is relaxed one step and requeued
 * (core: scheduling/scheduler.go, Solve and add).
 */
import { Label } from '../labels.ts';
import type { LimitBudget } from '../limits/limit-budget.ts';
import type { LimitRefusal } from '../limits/limit-scope.ts';
import { has } from '../requirements/requirement.ts';
import { ClaimsByLoad, type ClaimView, type RoomNeed } from './claims-by-load.ts';
import type { ExistingNode } from './existing-node.ts';
import type { FilledNodeClaim } from './filled-node-claim.ts';
import { LaunchingNodes } from './launching-nodes.ts';
import { LimitedOptions } from './limited-options.ts';
import { NewNodeClaim, type Placement } from './new-node-claim.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { Queue } from './queue.ts';
import { repackFreeClaims } from './repacking.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import { SettledNodes } from './settled-nodes.ts';
import {
  type DomainRestriction,
  type HostConfinement,
  type LastingHostBlock,
  narrowedToPod,
  nodeAllows,
  type Topology,
} from './topology/topology.ts';
import { isUnfit, limitUnfit, type Unfit, unfit } from './unfit.ts';

export interface SchedulerInput {
  readonly pods: readonly SchedulingPod[];
  readonly existingNodes: readonly ExistingNode[];
  /** In the order pools are tried: weight, then name. */
  readonly templates: readonly NodeClaimTemplate[];
  readonly topology: Topology;
  /** What remains of the pools' and the cluster's limits; new claims take from it. */
  readonly budget: LimitBudget;
  readonly canToleratePreferNoSchedule: boolean;
  /** NodePools left out of this pass (not ready), reported with every pod that found no place. */
  readonly skipped?: readonly PoolUnfit[];
  /**
   * Asked now and then; once it answers true, scheduling stops and the pods not yet placed are
   * reported with code `Deadline`. The caller's clock stands behind it, never the domain's: a
   * plan without it runs to the end and stays deterministic.
   */
  readonly outOfTime?: () => boolean;
}

/** Pods placed between two looks at the deadline: often enough, and cheap next to placing them. */
const DEADLINE_CHECK_EVERY = 64;

export interface PoolUnfit extends Unfit {
  readonly nodePool?: string;
}

export interface SchedulerResult {
  readonly newClaims: readonly FilledNodeClaim[];
  readonly failures: ReadonlyMap<string, readonly PoolUnfit[]>;
}

/**
 * Offers the pod to new claims, fewest pods first; returns the claim that took it. Claims without
 * room for it, on other hosts than a hostname affinity confines it to, or in none of the domains
 * its topology allows it now are turned away before the full placement is worked out: they
 * would refuse it anyway. The limits have their say on a claim growing: first cheaply, then on
 * the placement itself.
 */
function firstAccepting(
  claims: ClaimsByLoad<NewNodeClaim>,
  pod: SchedulingPod,
  topology: Topology,
  limits: LimitedOptions,
): NewNodeClaim | undefined {
  const constrainsHostname = pod.requirements.strict.has(Label.hostname);
  const confinement = topology.confinement(pod.pod, constrainsHostname);
  const hosts = confinement?.hosts;
  const restrictions = narrowedToPod(
    topology.restrictions(pod.pod, pod.requirements.strict),
    pod.requirements.all,
  );
  // A restriction the pod allows no domain of leaves it no claim at all.
  if (restrictions.some((r) => r.domains.length === 0)) return undefined;
  const blocked = topology.hostBlocker(pod.pod, constrainsHostname);
  let placement: Placement | undefined;
  const accepts = (claim: NewNodeClaim): boolean => {
    if (hosts !== undefined && !hosts.has(claim.hostname)) return false;
    if (!nodeAllows(restrictions, claim.requirements)) return false;
    if (!claim.hasRoomFor(pod) || !limits.mayTake(claim, pod) || blocked(claim.hostname))
      return false;
    const answer = claim.canAdd(pod, topology);
    if (isUnfit(answer) || !limits.admits(claim, answer)) return false;
    placement = answer;
    return true;
  };
  const view = claimView(confinement, () => topology.lastingHostBlock(pod.pod), restrictions);
  const claim =
    view === undefined ? claims.find(pod.need, accepts) : claims.findIn(view, pod.need, accepts);
  if (claim === undefined || placement === undefined) return undefined;
  claim.add(pod, placement, topology);
  claims.moved(claim);
  return claim;
}

/**
 * The claims a pod can only be taken by, as a lasting view (ClaimView): those on the hosts a
 * hostname affinity confines it to, those its hostname anti-affinity leaves free, or those
 * allowing the one domain a restriction leaves it. A claim's requirements change only as it
 * takes a pod, as do the counts on its host.
 */
function claimView(
  confinement: HostConfinement | undefined,
  block: () => LastingHostBlock | undefined,
  restrictions: readonly DomainRestriction[],
): ClaimView<NewNodeClaim> | undefined {
  if (confinement !== undefined) {
    const { id, hosts } = confinement;
    return { id, holds: (claim) => hosts.has(claim.hostname) };
  }
  const blocking = block();
  if (blocking !== undefined) {
    return { id: blocking.id, holds: (claim) => !blocking.blocks(claim.hostname) };
  }
  for (const { key, domains } of restrictions) {
    const [domain] = domains;
    if (domain === undefined || domains.length > 1) continue;
    const holds = (claim: NewNodeClaim) => {
      const node = claim.requirements.get(key);
      return node === undefined || has(node, domain);
    };
    return { id: `${key}=${domain}`, holds };
  }
  return undefined;
}

export class Scheduler {
  private readonly input: SchedulerInput;
  private readonly claims = new ClaimsByLoad<NewNodeClaim>();
  private readonly limits: LimitedOptions;
  private readonly failures = new Map<string, PoolUnfit[]>();
  private readonly settled: SettledNodes;
  private readonly launching: LaunchingNodes;
  private stopped = false;

  constructor(input: SchedulerInput) {
    this.input = input;
    this.limits = new LimitedOptions(input.budget);
    this.settled = new SettledNodes(input.existingNodes.filter((n) => !n.launching));
    this.launching = new LaunchingNodes(input.existingNodes.filter((n) => n.launching));
  }

  solve(): SchedulerResult {
    for (const pod of this.input.pods) this.input.topology.update(pod.pod, pod.preferences);
    const queue = new Queue(this.input.pods);
    let placed = 0;
    for (let pod = queue.pop(); pod !== undefined; pod = queue.pop()) {
      if (++placed % DEADLINE_CHECK_EVERY === 0 && this.input.outOfTime?.()) {
        this.stopAtDeadline([pod, ...queue.remaining()]);
        break;
      }
      const failures = this.add(pod);
      if (failures === undefined) {
        this.failures.delete(pod.uid);
        continue;
      }
      this.failures.set(pod.uid, failures);
      const relaxed = pod.relax(this.input.canToleratePreferNoSchedule) !== undefined;
      if (relaxed) this.input.topology.update(pod.pod, pod.preferences);
      queue.push(pod, relaxed);
    }
    return { newClaims: this.finalClaims(), failures: this.failures };
  }

  /** The claims opened, the free ones packed again by cost unless time ran out (repacking.ts). */
  private finalClaims(): readonly FilledNodeClaim[] {
    if (this.stopped) return this.claims.all;
    return repackFreeClaims(this.claims.all, this.input.topology, this.limits);
  }

  /** The pods left when time ran out keep no place and say why; the next pass takes them up. */
  private stopAtDeadline(left: readonly SchedulingPod[]): void {
    this.stopped = true;
    const reason = unfit(
      'Deadline',
      'the pass reached its deadline before this pod; the next pass continues',
    );
    for (const pod of left) this.failures.set(pod.uid, [reason]);
  }

  private add(pod: SchedulingPod): PoolUnfit[] | undefined {
    if (this.settled.place(pod, this.input.topology) !== undefined) return undefined;
    if (this.launching.place(pod, this.input.topology) !== undefined) return undefined;
    const claim = firstAccepting(this.claims, pod, this.input.topology, this.limits);
    if (claim !== undefined) return undefined;
    return this.open(pod);
  }

  private open(pod: SchedulingPod): PoolUnfit[] | undefined {
    const skipped = this.input.skipped ?? [];
    if (this.input.templates.length === 0 && skipped.length === 0) {
      return [
        unfit(
          'NoNodePools',
          'no NodePool can launch nodes (none given, or none has instance types)',
        ),
      ];
    }
    const failures: PoolUnfit[] = [...skipped];
    for (const template of this.input.templates) {
      const opening = this.limits.opening(template);
      if (opening.kind === 'refused') {
        failures.push({ ...limitUnfit(opening.refusal), nodePool: template.name });
        continue;
      }
      // A candidate claim touches nothing until the pod is added: a refusal leaves no trace.
      const index = this.claims.all.length;
      const claim = new NewNodeClaim({ template, index, allowed: opening.allowed });
      const answer = claim.isEmpty
        ? limitUnfit(noOptionWithin(template))
        : claim.canAdd(pod, this.input.topology);
      if (isUnfit(answer)) {
        failures.push({ ...answer, nodePool: template.name });
        continue;
      }
      claim.add(pod, answer, this.input.topology);
      this.claims.add(claim);
      this.limits.opened(claim);
      return undefined;
    }
    return failures;
  }
}

/** When each option fits some limit but none fits them all together. */
function noOptionWithin(template: NodeClaimTemplate): LimitRefusal {
  const message = `NodePool ${template.name} has no instance type within its limits`;
  return { nodePool: template.name, limit: 'nodes', message };
}
