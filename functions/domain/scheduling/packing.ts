/**
 * Packing pods of a few sizes onto instance types by cost, for pods that may go anywhere
 * (repacking.ts). The scheduler fills claims pod by pod in Karpenter's order, which keeps a
 * claim's mix as the queue delivers it: CPU-heavy pods first, memory-heavy ones last. Pods that
 * go anywhere can instead be grouped so that every node is full in every resource it pays for.
 *
 * It is a greedy over node configurations, the usual heuristic for the configuration linear
 * program of bin packing: each pod size gets a worth, at first what it costs alone on the type
 * cheapest for it; each candidate type is filled with the pods that add the most worth per share
 * of its fullest resource, so memory-heavy pods fill the memory a CPU-heavy node leaves; the node
 * that returns the most worth per dollar of the cheapest type holding it is taken, as many times
 * as the pods left allow. Worths are then moved towards what each size actually cost in that
 * packing and the greedy runs again; the cheapest packing wins. A few thousand pods of a few
 * dozen sizes pack in milliseconds: the candidates are the few cheapest types for each size
 * alone, a node is filled half its room left at a time, and a node is filled again only when
 * it may now be the best one.
 */

/** Pods of one size: CPU, memory and pod slots each asks, and how many there are. */
export interface PodSize {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly count: number;
}

/** What a type leaves for pods, and its price. */
export interface NodeShape {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  readonly price: number;
}

/** A pool's types, cheapest first, and those that can be the cheapest holding anything. */
export interface PackingCatalog {
  readonly shapes: readonly NodeShape[];
  /** The types no cheaper or earlier type holds as much of every resource as, in order. */
  readonly frontier: readonly number[];
}

/** `copies` nodes of type `type` (an index into the catalog), each holding `counts[s]` pods of size s. */
export interface PackedNodes {
  readonly type: number;
  readonly counts: readonly number[];
  readonly copies: number;
}

export interface Packing {
  readonly nodes: readonly PackedNodes[];
  readonly price: number;
}

/** Greedy runs, each with worths learnt from the one before. */
const ROUNDS = 3;
/** Types a size may be packed into: the few cheapest for it alone. */
const TYPES_PER_SIZE = 3;
/** A fill adds at most this share of the room left for the size in one step. */
const STEP_SHARE = 1 / 2;
/** Worth given to each size after a round: halfway between its last worth and what it cost. */
const LEARNING = 0.5;

/** Only undominated types can be the cheapest holding a node, so only these are searched. */
export function packingCatalog(shapes: readonly NodeShape[]): PackingCatalog {
  const frontier: number[] = [];
  shapes.forEach((shape, type) => {
    const covered = frontier.some((k) => {
      const other = shapes[k] as NodeShape;
      return other.cpu >= shape.cpu && other.memory >= shape.memory && other.pods >= shape.pods;
    });
    if (!covered && shape.cpu > 0 && shape.memory > 0 && shape.pods > 0) frontier.push(type);
  });
  return { shapes, frontier };
}

/** The share of the type one pod takes on its tightest resource; only for sizes that fit. */
function tightestShare(size: PodSize, shape: NodeShape): number {
  return Math.max(size.cpu / shape.cpu, size.memory / shape.memory, size.pods / shape.pods);
}

function fits(size: PodSize, shape: NodeShape): boolean {
  return size.cpu <= shape.cpu && size.memory <= shape.memory && size.pods <= shape.pods;
}

/** The `TYPES_PER_SIZE` types on which the size costs least alone, least first. */
function cheapestFor(size: PodSize, catalog: PackingCatalog): { type: number; cost: number }[] {
  const top: { type: number; cost: number }[] = [];
  for (const type of catalog.frontier) {
    const shape = catalog.shapes[type] as NodeShape;
    if (!fits(size, shape)) continue;
    const cost = shape.price * tightestShare(size, shape);
    if (top.length === TYPES_PER_SIZE && cost >= (top[TYPES_PER_SIZE - 1]?.cost ?? 0)) continue;
    let at = top.length;
    while (at > 0 && (top[at - 1]?.cost ?? 0) > cost) at--;
    top.splice(at, 0, { type, cost });
    if (top.length > TYPES_PER_SIZE) top.pop();
  }
  return top;
}

/** One candidate type with the share of it one pod of each size takes, per resource. */
interface Candidate {
  readonly type: number;
  readonly shape: NodeShape;
  readonly cpu: readonly number[];
  readonly memory: readonly number[];
  readonly pods: readonly number[];
}

function candidateOf(type: number, shape: NodeShape, sizes: readonly PodSize[]): Candidate {
  return {
    type,
    shape,
    cpu: sizes.map((s) => s.cpu / shape.cpu),
    memory: sizes.map((s) => s.memory / shape.memory),
    pods: sizes.map((s) => s.pods / shape.pods),
  };
}

/** The problem as parallel arrays, so the fill's inner loop stays on numbers. */
interface Problem {
  readonly catalog: PackingCatalog;
  readonly cpu: Float64Array;
  readonly memory: Float64Array;
  readonly pods: Float64Array;
  readonly counts: Float64Array;
  /** Every size's index, in order: where each fill's list of sizes that may go in starts. */
  readonly sizes: readonly number[];
  readonly candidates: readonly Candidate[];
}

/**
 * One node being filled: how many of each size it holds, what it uses and what share of its
 * type, and the sizes that may still go in. A size that does not fit never will, as the node
 * only fills, so it leaves the list for good.
 */
interface NodeFill {
  readonly counts: number[];
  cpu: number;
  memory: number;
  pods: number;
  cpuShare: number;
  memoryShare: number;
  podsShare: number;
  readonly open: number[];
  openCount: number;
}

function isEmpty(node: NodeFill): boolean {
  return node.pods === 0 && node.cpu === 0 && node.memory === 0;
}

/** Whether one more pod of size s is left and fits. */
function canTake(problem: Problem, c: Candidate, node: NodeFill, s: number, left: Float64Array) {
  if ((left[s] ?? 0) <= (node.counts[s] ?? 0)) return false;
  return (
    node.cpu + (problem.cpu[s] ?? 0) <= c.shape.cpu &&
    node.memory + (problem.memory[s] ?? 0) <= c.shape.memory &&
    node.pods + (problem.pods[s] ?? 0) <= c.shape.pods
  );
}

/**
 * The size to put in the node next: the one that adds the most worth per share of the node's
 * fullest resource, so a size that fits in the room the fullest resource leaves elsewhere,
 * costing nothing, goes first; -1 when none fits. The packing's hottest loop.
 */
function nextSize(
  problem: Problem,
  c: Candidate,
  node: NodeFill,
  left: Float64Array,
  worths: Float64Array,
): number {
  const fullest = Math.max(node.cpuShare, node.memoryShare, node.podsShare);
  let best = -1;
  let bestScore = -1;
  let kept = 0;
  for (let i = 0; i < node.openCount; i++) {
    const s = node.open[i] ?? 0;
    if (!canTake(problem, c, node, s, left)) continue;
    node.open[kept++] = s;
    const after = Math.max(
      node.cpuShare + (c.cpu[s] ?? 0),
      node.memoryShare + (c.memory[s] ?? 0),
      node.podsShare + (c.pods[s] ?? 0),
    );
    const score = (worths[s] ?? 0) / (after - fullest + 1e-9);
    if (score > bestScore) {
      bestScore = score;
      best = s;
    }
  }
  node.openCount = kept;
  return best;
}

/** How many of an amount fit in what is free; unbounded for an amount of nothing. */
function spare(free: number, amount: number): number {
  return amount > 0 ? Math.floor(free / amount) : Number.POSITIVE_INFINITY;
}

/** How many pods of size s go in at once: a share of the room left for them, at least one. */
function stepOf(problem: Problem, c: Candidate, node: NodeFill, s: number, left: Float64Array) {
  const { shape } = c;
  const room = Math.min(
    spare(shape.cpu - node.cpu, problem.cpu[s] ?? 0),
    spare(shape.memory - node.memory, problem.memory[s] ?? 0),
    spare(shape.pods - node.pods, problem.pods[s] ?? 0),
  );
  const available = (left[s] ?? 0) - (node.counts[s] ?? 0);
  return Math.max(1, Math.min(available, Math.floor(room * STEP_SHARE)));
}

function take(problem: Problem, c: Candidate, node: NodeFill, s: number, count: number): void {
  node.counts[s] = (node.counts[s] ?? 0) + count;
  node.cpu += count * (problem.cpu[s] ?? 0);
  node.memory += count * (problem.memory[s] ?? 0);
  node.pods += count * (problem.pods[s] ?? 0);
  node.cpuShare += count * (c.cpu[s] ?? 0);
  node.memoryShare += count * (c.memory[s] ?? 0);
  node.podsShare += count * (c.pods[s] ?? 0);
}

/** Fills one node of a candidate type, a share of the room left at a time. */
function fill(problem: Problem, c: Candidate, left: Float64Array, worths: Float64Array): NodeFill {
  const node: NodeFill = {
    counts: new Array<number>(left.length).fill(0),
    cpu: 0,
    memory: 0,
    pods: 0,
    cpuShare: 0,
    memoryShare: 0,
    podsShare: 0,
    open: problem.sizes.slice(),
    openCount: left.length,
  };
  for (let s = nextSize(problem, c, node, left, worths); s >= 0; ) {
    take(problem, c, node, s, stepOf(problem, c, node, s, left));
    s = nextSize(problem, c, node, left, worths);
  }
  return node;
}

/** The cheapest type that holds the node's use: the type it launches as; -1 for none. */
function cheapestHolding(catalog: PackingCatalog, node: NodeFill): number {
  for (const type of catalog.frontier) {
    const shape = catalog.shapes[type] as NodeShape;
    if (node.cpu <= shape.cpu && node.memory <= shape.memory && node.pods <= shape.pods)
      return type;
  }
  return -1;
}

function worthOf(counts: readonly number[], worths: Float64Array): number {
  let worth = 0;
  for (let s = 0; s < counts.length; s++) worth += (counts[s] ?? 0) * (worths[s] ?? 0);
  return worth;
}

/** A candidate's filled node, with the type it launches as and its worth per dollar. */
interface Offer {
  readonly type: number;
  readonly counts: readonly number[];
  readonly score: number;
}

/**
 * The nodes of one greedy run, one per candidate type. A node stays the same while every size
 * it holds is left as it was: sizes it did not take were never the best, so fewer of them
 * change nothing. The candidates that shared a size with the last node taken go stale.
 */
class Offers {
  private readonly offers: (Offer | undefined)[];
  private readonly stale: boolean[];
  /** A stale candidate's score when it was last filled. */
  private readonly bounds: number[];

  constructor(
    private readonly problem: Problem,
    private readonly worths: Float64Array,
  ) {
    this.offers = problem.candidates.map(() => undefined);
    this.stale = problem.candidates.map(() => true);
    this.bounds = problem.candidates.map(() => Number.POSITIVE_INFINITY);
  }

  /**
   * The node that returns the most worth per dollar, among one of each candidate type. A stale
   * node's last score is taken as the most it can score now, as fewer pods left seldom make a
   * fill worth more, so only candidates whose last score beats the best fresh node are filled
   * again: a lazy greedy, a third of the fills for packings 1–3 % dearer on the benchmark's
   * plain mixes.
   */
  best(left: Float64Array): Offer | undefined {
    for (let top = this.top(); top >= 0; top = this.top()) {
      if (!this.stale[top]) return this.offers[top];
      this.offers[top] = this.offer(this.problem.candidates[top] as Candidate, left);
      this.stale[top] = false;
    }
    return undefined;
  }

  /** The candidate with the best score, or bound when stale; -1 when none has a node. */
  private top(): number {
    let top = -1;
    let topScore = 0;
    for (let c = 0; c < this.offers.length; c++) {
      const score = this.stale[c] ? (this.bounds[c] ?? 0) : (this.offers[c]?.score ?? 0);
      if (score > topScore) {
        topScore = score;
        top = c;
      }
    }
    return top;
  }

  /** The sizes a node was taken of: the candidates holding any of them are filled again. */
  taken(counts: readonly number[]): void {
    for (let c = 0; c < this.offers.length; c++) {
      const offer = this.offers[c];
      if (offer === undefined) continue;
      for (let s = 0; s < counts.length; s++) {
        if ((counts[s] ?? 0) > 0 && (offer.counts[s] ?? 0) > 0) {
          this.stale[c] = true;
          this.bounds[c] = offer.score;
          break;
        }
      }
    }
  }

  private offer(candidate: Candidate, left: Float64Array): Offer | undefined {
    const node = fill(this.problem, candidate, left, this.worths);
    if (isEmpty(node)) return undefined;
    const type = cheapestHolding(this.problem.catalog, node);
    const price = this.problem.catalog.shapes[type]?.price ?? 0;
    if (type < 0 || price <= 0) return undefined;
    return { type, counts: node.counts, score: worthOf(node.counts, this.worths) / price };
  }
}

/** One greedy run with the given worths; undefined if no candidate takes the pods left. */
function greedy(problem: Problem, worths: Float64Array): Packing | undefined {
  const left = Float64Array.from(problem.counts);
  const offers = new Offers(problem, worths);
  const nodes: PackedNodes[] = [];
  let price = 0;
  while (left.some((n) => n > 0)) {
    const offer = offers.best(left);
    if (offer === undefined) return undefined;
    let copies = Number.POSITIVE_INFINITY;
    offer.counts.forEach((n, s) => {
      if (n > 0) copies = Math.min(copies, Math.floor((left[s] ?? 0) / n));
    });
    offer.counts.forEach((n, s) => {
      left[s] = (left[s] ?? 0) - n * copies;
    });
    offers.taken(offer.counts);
    nodes.push({ type: offer.type, counts: offer.counts, copies });
    price += copies * (problem.catalog.shapes[offer.type]?.price ?? 0);
  }
  return { nodes, price };
}

/** Each size's worth moved towards its share of the price of the nodes it went to. */
function learnt(problem: Problem, packing: Packing, worths: Float64Array): Float64Array {
  const cost = new Float64Array(worths.length);
  const placed = new Float64Array(worths.length);
  for (const node of packing.nodes) {
    const { counts } = node;
    const worth = worthOf(counts, worths);
    const price = problem.catalog.shapes[node.type]?.price ?? 0;
    if (worth <= 0) continue;
    counts.forEach((n, s) => {
      cost[s] = (cost[s] ?? 0) + (node.copies * n * (worths[s] ?? 0) * price) / worth;
      placed[s] = (placed[s] ?? 0) + node.copies * n;
    });
  }
  return worths.map((w, s) => {
    const n = placed[s] ?? 0;
    return n === 0 ? w : (1 - LEARNING) * w + (LEARNING * (cost[s] ?? 0)) / n;
  });
}

/**
 * The cheapest packing found of the sizes onto the catalog's types; undefined when some size
 * fits no type. Deterministic: ties go to the earlier size and the cheaper candidate.
 */
export function packSizes(sizes: readonly PodSize[], catalog: PackingCatalog): Packing | undefined {
  const first = new Float64Array(sizes.length);
  const types = new Set<number>();
  for (let s = 0; s < sizes.length; s++) {
    const cheapest = cheapestFor(sizes[s] as PodSize, catalog);
    if (cheapest.length === 0) return undefined;
    first[s] = cheapest[0]?.cost ?? 0;
    for (const { type } of cheapest) types.add(type);
  }
  const problem: Problem = {
    catalog,
    cpu: Float64Array.from(sizes, (s) => s.cpu),
    memory: Float64Array.from(sizes, (s) => s.memory),
    pods: Float64Array.from(sizes, (s) => s.pods),
    counts: Float64Array.from(sizes, (s) => s.count),
    sizes: sizes.map((_, s) => s),
    candidates: [...types]
      .sort((a, b) => a - b)
      .map((type) => candidateOf(type, catalog.shapes[type] as NodeShape, sizes)),
  };
  let worths: Float64Array = first;
  let best: Packing | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const packing = greedy(problem, worths);
    if (packing === undefined) return undefined;
    if (best === undefined || packing.price < best.price) best = packing;
    worths = learnt(problem, packing, worths);
  }
  return best;
}
