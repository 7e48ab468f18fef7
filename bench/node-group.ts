/**
 * What one well-chosen node group would pay: for every instance type, the pods packed onto nodes
 * of that type alone, by the best of three packings; the cheapest type wins. It is what a Cluster
 * Autoscaler user with a single node group gets, and the honest yardstick for a catalog-wide
 * NodePool, where the fractional bound (lower-bound.ts) is loose. Constraints other than CPU,
 * memory and the pod slots are ignored, so it is only meaningful for plain mixes.
 */
export interface Demand {
  readonly cpu: number;
  readonly memory: number;
}

export interface NodeGroupType {
  readonly name: string;
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly price: number;
}

export interface NodeGroupCost {
  readonly instanceType: string;
  readonly nodes: number;
  readonly pricePerHour: number;
}

/** Nodes needed if every node could be filled to the brim: no packing can do with fewer. */
function atLeast(type: NodeGroupType, total: Demand, count: number): number {
  return Math.max(
    Math.ceil(total.cpu / type.cpu),
    Math.ceil(total.memory / type.memory),
    Math.ceil(count / type.pods),
  );
}

/** Free room per open node, in three parallel arrays so the scan stays cheap. */
class OpenNodes {
  readonly cpu: number[] = [];
  readonly memory: number[] = [];
  readonly pods: number[] = [];

  constructor(private readonly type: NodeGroupType) {}

  place(pod: Demand): void {
    for (let node = 0; node < this.cpu.length; node++) {
      if (this.fits(node, pod)) {
        this.take(node, pod);
        return;
      }
    }
    this.cpu.push(this.type.cpu);
    this.memory.push(this.type.memory);
    this.pods.push(this.type.pods);
    this.take(this.cpu.length - 1, pod);
  }

  private fits(node: number, pod: Demand): boolean {
    return (
      (this.pods[node] ?? 0) >= 1 &&
      (this.cpu[node] ?? 0) >= pod.cpu &&
      (this.memory[node] ?? 0) >= pod.memory
    );
  }

  private take(node: number, pod: Demand): void {
    this.cpu[node] = (this.cpu[node] ?? 0) - pod.cpu;
    this.memory[node] = (this.memory[node] ?? 0) - pod.memory;
    this.pods[node] = (this.pods[node] ?? 0) - 1;
  }
}

/** First-fit decreasing onto one type; undefined when some pod fits no node of it. */
function firstFitDecreasing(type: NodeGroupType, sorted: readonly Demand[]): number | undefined {
  const nodes = new OpenNodes(type);
  for (const pod of sorted) {
    if (pod.cpu > type.cpu || pod.memory > type.memory) return undefined;
    nodes.place(pod);
  }
  return nodes.cpu.length;
}

/** Largest share of the type first: the usual "decreasing" for two dimensions. */
function decreasing(pods: readonly Demand[], type: NodeGroupType): Demand[] {
  const size = (p: Demand) => Math.max(p.cpu / type.cpu, p.memory / type.memory);
  return [...pods].sort((a, b) => size(b) - size(a));
}

/** Pods of one size and how many there are: node-at-a-time fills choose among sizes, not pods. */
interface SizeCount {
  readonly demand: Demand;
  count: number;
}

function sizeCounts(pods: readonly Demand[]): SizeCount[] {
  const bySize = new Map<string, SizeCount>();
  for (const pod of pods) {
    const key = `${pod.cpu}/${pod.memory}`;
    const size = bySize.get(key) ?? { demand: pod, count: 0 };
    size.count++;
    bySize.set(key, size);
  }
  return [...bySize.values()];
}

/** How a node-at-a-time fill rates a pod for the node: higher goes in first. */
type Rating = (pod: readonly number[], used: readonly number[]) => number;

/**
 * The dot product of the pod with the room the node has left, each resource as a share of the
 * type: the pod that best matches the shape of what is free goes in (Panigrahy et al., "Heuristics
 * for Vector Bin Packing", 2011, DotProduct).
 */
const dotProduct: Rating = (pod, used) =>
  pod.reduce((sum, share, r) => sum + share * (1 - (used[r] ?? 0)), 0);

/**
 * The pod's size per share the node's fullest resource grows by: a pod that fits in the room
 * the fullest resource leaves elsewhere goes in first, so nodes fill evenly in every resource.
 */
const balance: Rating = (pod, used) => {
  const fullest = Math.max(...used);
  const after = Math.max(...used.map((u, r) => u + (pod[r] ?? 0)));
  return pod.reduce((sum, share) => sum + share, 0) / (after - fullest + 1e-9);
};

/** Nodes of the type filled one at a time, each with the best-rated pod that fits until none does. */
function nodeAtATime(type: NodeGroupType, sizes: readonly SizeCount[], rate: Rating): number {
  const left = sizes.map((s) => s.count);
  const shares = sizes.map(({ demand }) => [
    demand.cpu / type.cpu,
    demand.memory / type.memory,
    1 / type.pods,
  ]);
  let nodes = 0;
  while (left.some((n) => n > 0)) {
    nodes++;
    const used = [0, 0, 0];
    for (;;) {
      let best = -1;
      let bestRating = Number.NEGATIVE_INFINITY;
      shares.forEach((pod, s) => {
        if ((left[s] ?? 0) === 0 || pod.some((share, r) => (used[r] ?? 0) + share > 1 + 1e-12))
          return;
        const rating = rate(pod, used);
        if (rating > bestRating) {
          bestRating = rating;
          best = s;
        }
      });
      if (best < 0) break;
      left[best] = (left[best] ?? 0) - 1;
      (shares[best] ?? []).forEach((share, r) => {
        used[r] = (used[r] ?? 0) + share;
      });
    }
  }
  return nodes;
}

/**
 * The fewest nodes of the type any of three packings needs: first-fit decreasing, and two
 * node-at-a-time fills. First-fit decreasing alone packs large types badly when the pods mix
 * CPU-heavy and memory-heavy sizes: it puts the memory-heavy ones first, fills nodes' memory and
 * strands their CPU (78 hpc7g.16xlarge nodes where 56 do).
 */
function packedNodes(
  type: NodeGroupType,
  pods: readonly Demand[],
  sizes: readonly SizeCount[],
): number | undefined {
  const ffd = firstFitDecreasing(type, decreasing(pods, type));
  if (ffd === undefined) return undefined;
  return Math.min(ffd, nodeAtATime(type, sizes, dotProduct), nodeAtATime(type, sizes, balance));
}

/**
 * The cheapest single-type node group. Types are tried in order of their brim-full bound, and
 * the search stops once that bound alone costs more than the best packing found, which keeps
 * the 1,000-odd catalog types to a handful of real packings.
 */
export function cheapestNodeGroup(
  types: readonly NodeGroupType[],
  pods: readonly Demand[],
): NodeGroupCost | undefined {
  const total = pods.reduce((sum, p) => ({ cpu: sum.cpu + p.cpu, memory: sum.memory + p.memory }), {
    cpu: 0,
    memory: 0,
  });
  const usable = types.filter((t) => t.cpu > 0 && t.memory > 0 && t.pods > 0 && t.price > 0);
  const sizes = sizeCounts(pods);
  const bound = (t: NodeGroupType) => atLeast(t, total, pods.length) * t.price;
  const ordered = [...usable].sort((a, b) => bound(a) - bound(b) || a.name.localeCompare(b.name));
  let best: NodeGroupCost | undefined;
  for (const type of ordered) {
    if (best !== undefined && bound(type) >= best.pricePerHour) break;
    const nodes = packedNodes(type, pods, sizes);
    if (nodes === undefined) continue;
    const pricePerHour = nodes * type.price;
    if (best === undefined || pricePerHour < best.pricePerHour) {
      best = { instanceType: type.name, nodes, pricePerHour };
    }
  }
  return best;
}
