/**
 * The scheduler's last step: the new claims that hold only pods free to go anywhere are packed
 * again by cost (packing.ts), pool by pool, and replaced when that is cheaper.
 *
 * The scheduler fills claims in Karpenter's order, largest CPU first, so its first claims are
 * CPU-heavy and its last memory-heavy, each launched as a type fit for that one mix. Pods that
 * no requirement, topology group, host port or device ties to a node can share nodes with any
 * other such pod: mixing them fills every resource a node pays for. Only claims holding nothing
 * else are repacked, so no pod that counts for a constraint moves and every constrained
 * placement stands. A claim still launches as the cheapest type holding its pods, with every
 * type that holds them among its options, as Karpenter's do.
 *
 * A pool whose claims something else accounts for is left as the scheduler packed it: limits
 * (each claim was counted when opened), minValues (each claim must keep enough options),
 * capacity reservations and placement groups (counted per claim when the plan is assembled). So
 * is a pool that opened a single such claim: the claim is already the cheapest type holding its
 * pods, and splitting it would turn what consolidation replaces with one node into two.
 */
import { CapacityType, Label } from '../labels.ts';
import { has } from '../requirements/requirement.ts';
import type { FilledNodeClaim } from './filled-node-claim.ts';
import type { LimitedOptions } from './limited-options.ts';
import { withMinValues } from './min-values.ts';
import type { NewNodeClaim } from './new-node-claim.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { PackedNodeClaim } from './packed-node-claim.ts';
import {
  type PackedNodes,
  type PackingCatalog,
  type PodSize,
  packingCatalog,
  packSizes,
} from './packing.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import type { Topology } from './topology/topology.ts';

/** More distinct pod sizes than this and the packing's work grows past what a pass should spend. */
const MOST_SIZES = 256;

/** Whether the pod may move to any new node of its pool without changing anything but its requests. */
function free(pod: SchedulingPod, topology: Topology): boolean {
  return (
    pod.requirements.all.size === 0 &&
    pod.hostPorts.length === 0 &&
    !pod.core.extended &&
    !topology.touches(pod.pod)
  );
}

/** Whether nothing but the scheduler counts the pool's claims (see the file comment). */
function repackable(template: NodeClaimTemplate, limits: LimitedOptions): boolean {
  const capacityTypes = template.requirements.get(Label.capacityType);
  return (
    !limits.isLimited(template) &&
    withMinValues(template.requirements).length === 0 &&
    (capacityTypes === undefined || !has(capacityTypes, CapacityType.reserved)) &&
    !template.typeKeys.has(Label.placementGroupId)
  );
}

/** The pool's pods by size, in the order the claims held them. */
interface Sized {
  readonly sizes: readonly PodSize[];
  readonly pods: readonly (readonly SchedulingPod[])[];
}

/** Numbers to the index of the size they name, by CPU, then memory, then pod slots. */
type SizeKeys = Map<number, Map<number, Map<number, number>>>;

function sizeOf(keys: SizeKeys, { cpu, memory, pods }: SchedulingPod['core'], next: number) {
  const byMemory = keys.get(cpu) ?? new Map<number, Map<number, number>>();
  keys.set(cpu, byMemory);
  const bySlots = byMemory.get(memory) ?? new Map<number, number>();
  byMemory.set(memory, bySlots);
  const s = bySlots.get(pods) ?? next;
  bySlots.set(pods, s);
  return s;
}

/** Largest CPU first, then memory, then pod slots, as the queue orders pods. */
function bySizeOrder(a: readonly SchedulingPod[], b: readonly SchedulingPod[]): number {
  const x = (a[0] as SchedulingPod).core;
  const y = (b[0] as SchedulingPod).core;
  return y.cpu - x.cpu || y.memory - x.memory || y.pods - x.pods;
}

/**
 * The pods grouped by size, the sizes in one order whatever the claims they came from, so the
 * packing depends only on the pods; each size's pods in the order the claims held them.
 */
function bySize(claims: readonly NewNodeClaim[]): Sized {
  const keys: SizeKeys = new Map();
  const groups: SchedulingPod[][] = [];
  for (const claim of claims) {
    for (const pod of claim.pods) {
      const s = sizeOf(keys, pod.core, groups.length);
      if (s === groups.length) groups.push([]);
      groups[s]?.push(pod);
    }
  }
  const pods = groups.sort(bySizeOrder);
  const sizes = pods.map((same) => {
    const { cpu, memory, pods: slots } = (same[0] as SchedulingPod).core;
    return { cpu, memory, pods: slots, count: same.length };
  });
  return { sizes, pods };
}

/** Each pool's types as the packing reads them, kept with the template it was built from. */
const catalogs = new WeakMap<NodeClaimTemplate, PackingCatalog>();

function catalogOf(template: NodeClaimTemplate): PackingCatalog {
  let catalog = catalogs.get(template);
  if (catalog === undefined) {
    const shapes = template.options.map(({ net }, i) => ({
      cpu: net.cpu ?? 0,
      memory: net.memory ?? 0,
      pods: net.pods ?? 0,
      price: template.prices[i] ?? 0,
    }));
    catalog = packingCatalog(shapes);
    catalogs.set(template, catalog);
  }
  return catalog;
}

/** The packing's nodes as claims, each taking the next pods of each size in the order met. */
function claimsOf(
  template: NodeClaimTemplate,
  sized: Sized,
  nodes: readonly PackedNodes[],
): PackedNodeClaim[] {
  const taken = sized.pods.map(() => 0);
  const claims: PackedNodeClaim[] = [];
  for (const node of nodes) {
    for (let copy = 0; copy < node.copies; copy++) {
      const pods: SchedulingPod[] = [];
      node.counts.forEach((n, s) => {
        const start = taken[s] ?? 0;
        taken[s] = start + n;
        for (let i = start; i < start + n; i++) pods.push(sized.pods[s]?.[i] as SchedulingPod);
      });
      claims.push(new PackedNodeClaim(template, pods, node));
    }
  }
  return claims;
}

/** The pool's free claims packed again, or undefined when that is no cheaper. */
function repackPool(
  template: NodeClaimTemplate,
  claims: readonly NewNodeClaim[],
): PackedNodeClaim[] | undefined {
  const sized = bySize(claims);
  if (sized.sizes.length > MOST_SIZES) return undefined;
  const packing = packSizes(sized.sizes, catalogOf(template));
  const price = claims.reduce((sum, claim) => sum + claim.price, 0);
  // Float sums of the same prices may differ in the last bits: only a real saving counts.
  if (packing === undefined || packing.price >= price * (1 - 1e-9)) return undefined;
  return claimsOf(template, sized, packing.nodes);
}

/**
 * The claims with each pool's free ones packed again where that is cheaper: the claims that
 * stay, in their order, then the repacked ones.
 */
export function repackFreeClaims(
  claims: readonly NewNodeClaim[],
  topology: Topology,
  limits: LimitedOptions,
): readonly FilledNodeClaim[] {
  const freeByPool = new Map<NodeClaimTemplate, NewNodeClaim[]>();
  for (const claim of claims) {
    if (!claim.pods.every((pod) => free(pod, topology))) continue;
    const pool = freeByPool.get(claim.template) ?? [];
    pool.push(claim);
    freeByPool.set(claim.template, pool);
  }
  const replaced = new Set<NewNodeClaim>();
  const repacked: PackedNodeClaim[] = [];
  for (const [template, pool] of freeByPool) {
    if (pool.length < 2 || !repackable(template, limits)) continue;
    const packed = repackPool(template, pool);
    if (packed === undefined) continue;
    for (const claim of pool) replaced.add(claim);
    repacked.push(...packed);
  }
  if (replaced.size === 0) return claims;
  return [...claims.filter((claim) => !replaced.has(claim)), ...repacked];
}
