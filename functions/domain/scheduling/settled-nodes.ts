/**
 * The existing nodes that run pods, offered each pending pod in their order, the first that takes
 * it keeping it (core: scheduling/scheduler.go, add: existing nodes first). Asked one after the
 * other, 10,000 busy nodes are asked 10,000 times about a pod none has room for. Here the nodes
 * are the leaves of a tree whose every branch holds the most of each resource any node below it
 * has left, so a pod is offered only to nodes with room for it, in the same order: a node
 * without room would refuse it anyway (existing-node.ts, canAdd), so the node that takes it is
 * the one asking each in turn finds.
 */
import type { Resources } from '../resources.ts';
import type { ExistingNode } from './existing-node.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import type { Topology } from './topology/topology.ts';
import { isUnfit } from './unfit.ts';

/** A resource a pod asks for: its column in the tree and the amount. */
interface Wanted {
  readonly column: number;
  readonly amount: number;
}

export class SettledNodes {
  private readonly nodes: readonly ExistingNode[];
  private readonly columns = new Map<string, number>();
  /** Leaves from `width` on; the branch `b` has children `2b` and `2b + 1`; 1 is the root. */
  private readonly width: number;
  /** Per resource, the most any node below each branch has left (a leaf: that node). */
  private readonly most: Float64Array[] = [];

  constructor(nodes: readonly ExistingNode[]) {
    this.nodes = nodes;
    for (const node of nodes) {
      for (const name in node.available) {
        if (!this.columns.has(name)) this.columns.set(name, this.columns.size);
      }
    }
    let width = 1;
    while (width < nodes.length) width *= 2;
    this.width = width;
    for (let c = 0; c < this.columns.size; c++) {
      this.most.push(new Float64Array(2 * width).fill(Number.NEGATIVE_INFINITY));
    }
    nodes.forEach((node, i) => {
      this.setLeaf(i, node.available);
    });
    for (let branch = width - 1; branch >= 1; branch--) this.recompute(branch);
  }

  /** Places the pod on the first node, in order, that takes it; that node or none. */
  place(pod: SchedulingPod, topology: Topology): ExistingNode | undefined {
    const wanted = this.wanted(pod.requests);
    if (wanted === undefined || this.nodes.length === 0) return undefined;
    return this.firstTaking(1, wanted, pod, topology);
  }

  /** The amounts the pod asks for; undefined when no node has any of one of them. */
  private wanted(requests: Resources): Wanted[] | undefined {
    const wanted: Wanted[] = [];
    for (const name in requests) {
      const amount = requests[name] ?? 0;
      if (amount <= 0) continue;
      const column = this.columns.get(name);
      if (column === undefined) return undefined;
      wanted.push({ column, amount });
    }
    return wanted;
  }

  private firstTaking(
    branch: number,
    wanted: readonly Wanted[],
    pod: SchedulingPod,
    topology: Topology,
  ): ExistingNode | undefined {
    if (!this.hasRoom(branch, wanted)) return undefined;
    if (branch < this.width) {
      return (
        this.firstTaking(2 * branch, wanted, pod, topology) ??
        this.firstTaking(2 * branch + 1, wanted, pod, topology)
      );
    }
    const index = branch - this.width;
    const node = this.nodes[index];
    if (node === undefined) return undefined;
    const answer = node.canAdd(pod, topology);
    if (isUnfit(answer)) return undefined;
    node.add(pod, answer, topology);
    this.setLeaf(index, node.available);
    for (let up = branch >> 1; up >= 1; up >>= 1) this.recompute(up);
    return node;
  }

  private hasRoom(branch: number, wanted: readonly Wanted[]): boolean {
    for (const { column, amount } of wanted) {
      if ((this.most[column]?.[branch] ?? Number.NEGATIVE_INFINITY) < amount) return false;
    }
    return true;
  }

  private setLeaf(index: number, available: Resources): void {
    for (const [name, column] of this.columns) {
      const most = this.most[column];
      if (most !== undefined) most[this.width + index] = available[name] ?? 0;
    }
  }

  private recompute(branch: number): void {
    for (const most of this.most) {
      most[branch] = Math.max(most[2 * branch] ?? 0, most[2 * branch + 1] ?? 0);
    }
  }
}
