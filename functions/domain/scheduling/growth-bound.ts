/**
 * How far a node claim may grow, counting every resource its pods ask for.
 *
 * The CPU:memory table (efficiency.ts) misses what else a claim's pods consume: three pods that
 * each ask one GPU fit a 4-GPU machine at $4.60/h whose CPU and memory look efficient, where three
 * 1-GPU machines cost $2.41/h; hundreds of small pods fit one large machine whose pod slots
 * cost more than those of smaller types. So a claim's requests are read as a mix over every resource they name —
 * CPU, memory, pod slots, GPUs and other devices, ephemeral storage — and type u runs one unit
 * of that mix for priceᵤ · maxₖ(requestₖ / netₖᵤ). The efficient types are those within
 * `CLAIM_EFFICIENCY_LIMIT` of the cheapest; the claim may grow until the largest of them is
 * full. A type without some requested resource cannot run the mix at all.
 */
import type { Resources } from '../resources.ts';
import { CLAIM_EFFICIENCY_LIMIT } from './efficiency.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';

/** Per resource, what each option leaves for pods, in the options' order. */
type Capacities = Map<string, Float64Array>;

/**
 * Scales already worked out, by request mix. Claims are filled from a few pod sizes, so their
 * totals repeat: 20,000 pods of Karpenter's benchmark mix make about 700 distinct totals. Bounded,
 * so a stream of distinct totals cannot grow it without limit.
 */
const KNOWN_LIMIT = 4096;

export class GrowthBound {
  private readonly options: readonly InstanceTypeOption[];
  private readonly prices: Float64Array;
  private readonly capacities: Capacities = new Map();
  /** The fill of the latest `scale`, reused: a planner builds one bound per pool and asks it often. */
  private readonly scratch: Float64Array;
  private readonly known = new Map<string, number>();

  constructor(options: readonly InstanceTypeOption[], prices: readonly number[]) {
    this.options = options;
    this.prices = Float64Array.from(options, (_, i) => prices[i] ?? 0);
    this.scratch = new Float64Array(options.length);
  }

  /**
   * The largest factor the requests may be multiplied by and still fit one efficient option:
   * 1 when the claim is already as large as it should be, below 1 when it is past that.
   * Infinite for no requests; 0 when no option can run them.
   */
  scale(requests: Resources): number {
    // Asked each time a claim takes a pod: the key is built without intermediate arrays.
    let key = '';
    for (const name in requests) {
      const amount = requests[name] ?? 0;
      if (amount > 0) key += `${name}=${amount},`;
    }
    if (key === '') return Number.POSITIVE_INFINITY;
    let scale = this.known.get(key);
    if (scale === undefined) {
      if (this.known.size >= KNOWN_LIMIT) this.known.clear();
      const names = Object.keys(requests).filter((name) => (requests[name] ?? 0) > 0);
      scale = this.scaleOf(requests, names);
      this.known.set(key, scale);
    }
    return scale;
  }

  private scaleOf(requests: Resources, names: readonly string[]): number {
    const fill = this.fillOfOne(requests, names);
    // Called for every pod a claim takes: plain loops over one reused buffer, no spread.
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < fill.length; i++) best = Math.min(best, this.costAt(fill, i));
    if (!Number.isFinite(best)) return 0;
    const limit = best * CLAIM_EFFICIENCY_LIMIT;
    let largest = 0;
    for (let i = 0; i < fill.length; i++) {
      if (this.costAt(fill, i) <= limit) largest = Math.max(largest, 1 / (fill[i] ?? 1));
    }
    return largest;
  }

  /** What option i charges for one unit of the mix: infinite when it cannot run it. */
  private costAt(fill: Float64Array, i: number): number {
    const f = fill[i] ?? 0;
    return Number.isFinite(f) ? (this.prices[i] ?? 0) * f : Number.POSITIVE_INFINITY;
  }

  /** Per option, the share of it the requests fill on their tightest resource. */
  private fillOfOne(requests: Resources, names: readonly string[]): Float64Array {
    const fill = this.scratch;
    fill.fill(0);
    for (const name of names) {
      const amount = requests[name] ?? 0;
      const capacity = this.capacityOf(name);
      for (let i = 0; i < fill.length; i++) {
        const share = amount / (capacity[i] ?? 0);
        if (share > (fill[i] ?? 0)) fill[i] = share;
      }
    }
    return fill;
  }

  private capacityOf(name: string): Float64Array {
    let capacity = this.capacities.get(name);
    if (capacity === undefined) {
      capacity = Float64Array.from(this.options, (o) => Math.max(0, o.net[name] ?? 0));
      this.capacities.set(name, capacity);
    }
    return capacity;
  }
}
