/**
 * What one well-chosen node group would pay: for every instance type, the pods packed
 * first-fit-decreasing onto nodes of that type alone; the cheapest type wins. It is what a
 * Cluster Autoscaler user with a single node group gets, and the honest yardstick for a
 * catalog-wide NodePool, where the fractional bound (lower-bound.ts) is loose. Constraints other
 * than CPU, memory and the pod slots are ignored, so it is only meaningful for plain mixes.
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
  const bound = (t: NodeGroupType) => atLeast(t, total, pods.length) * t.price;
  const ordered = [...usable].sort((a, b) => bound(a) - bound(b) || a.name.localeCompare(b.name));
  let best: NodeGroupCost | undefined;
  for (const type of ordered) {
    if (best !== undefined && bound(type) >= best.pricePerHour) break;
    const nodes = firstFitDecreasing(type, decreasing(pods, type));
    if (nodes === undefined) continue;
    const pricePerHour = nodes * type.price;
    if (best === undefined || pricePerHour < best.pricePerHour) {
      best = { instanceType: type.name, nodes, pricePerHour };
    }
  }
  return best;
}
