/**
 * How big a node claim may grow and stay cost-efficient.
 *
 * Karpenter grows a node claim for as long as any instance type can still hold its pods, so a
 * big batch ends up on the largest types, which are often the most expensive per core (a 12 TiB
 * memory-optimised machine hosting web pods). Nodesmith lets a claim grow only while some
 * instance type that is cost-efficient for the claim's CPU:memory mix could still hold all its
 * pods: efficient meaning, once full, within `CLAIM_EFFICIENCY_LIMIT` of the cheapest
 * fractional cost of that mix. Past that, pods open another claim.
 *
 * For a mix with r bytes of memory per millicore, the cheapest fractional cost per millicore is
 * g(r) = minᵤ priceᵤ · max(1/cpuᵤ, r/memoryᵤ), and type u holds min(cpuᵤ, memoryᵤ/r) millicores of
 * that mix. Both depend only on r, so the largest efficient capacity is tabulated per NodePool
 * on a log grid of r. A point is computed the first time a claim asks for it: a pass's claims
 * meet a few mixes, and each point weighs every instance type the pool allows.
 */
import type { InstanceTypeOption } from './instance-type-option.ts';

/** A claim may grow into types within this factor of the cheapest way to run the same mix. */
export const CLAIM_EFFICIENCY_LIMIT = 1.1;

const LOG2_MIN = 8; // 256 bytes of memory per millicore
const LOG2_MAX = 36;
const STEP = 1 / 16;
const POINTS = Math.round((LOG2_MAX - LOG2_MIN) / STEP) + 1;

/** At each grid ratio, the most millicores of that mix one efficient instance type can hold. */
export class EfficiencyTable {
  /** Grid points; NaN until first asked for. */
  readonly #points = new Float64Array(POINTS).fill(Number.NaN);
  /** Per option, what it leaves for pods and its price, unpacked once for every point. */
  readonly #cpu: Float64Array;
  readonly #memory: Float64Array;
  readonly #prices: Float64Array;
  /** Each option's cost at the point being worked out. */
  readonly #costs: Float64Array;

  constructor(options: readonly InstanceTypeOption[], prices: readonly number[]) {
    this.#cpu = Float64Array.from(options, (o) => o.net.cpu ?? 0);
    this.#memory = Float64Array.from(options, (o) => o.net.memory ?? 0);
    this.#prices = Float64Array.from(options, (_, i) => prices[i] ?? 0);
    this.#costs = new Float64Array(options.length);
  }

  /** How many grid points there are. */
  get length(): number {
    return POINTS;
  }

  /** The capacity at grid point `p` (ratio 2^(8 + p/16) bytes per millicore). */
  at(p: number): number {
    let value = this.#points[p] ?? 0;
    if (Number.isNaN(value)) {
      value = this.largestEfficient(2 ** (LOG2_MIN + p * STEP));
      this.#points[p] = value;
    }
    return value;
  }

  private largestEfficient(ratio: number): number {
    const cpu = this.#cpu;
    const memory = this.#memory;
    const costs = this.#costs;
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < costs.length; i++) {
      costs[i] = unitCost(this.#prices[i] ?? 0, cpu[i] ?? 0, memory[i] ?? 0, ratio);
      best = Math.min(best, costs[i] ?? 0);
    }
    let largest = 0;
    for (let i = 0; i < costs.length; i++) {
      if ((costs[i] ?? 0) > best * CLAIM_EFFICIENCY_LIMIT) continue;
      largest = Math.max(largest, Math.min(cpu[i] ?? 0, (memory[i] ?? 0) / ratio));
    }
    return largest;
  }
}

function unitCost(price: number, cpu: number, memory: number, ratio: number): number {
  if (cpu <= 0 || memory <= 0) return Number.POSITIVE_INFINITY;
  return price * Math.max(1 / cpu, ratio / memory);
}

/**
 * The CPU and memory the largest efficient type holds for a mix with this many bytes per
 * millicore: the most a claim with that mix may grow to. Between grid points the smaller
 * neighbour decides.
 */
export function efficientEnvelope(
  table: EfficiencyTable,
  cpuMillis: number,
  memoryBytes: number,
): { cpu: number; memory: number } {
  if (cpuMillis <= 0) return { cpu: Number.POSITIVE_INFINITY, memory: Number.POSITIVE_INFINITY };
  const ratio = memoryBytes / cpuMillis;
  const position = (Math.log2(Math.max(ratio, 2 ** LOG2_MIN)) - LOG2_MIN) / STEP;
  const low = Math.min(Math.floor(position), POINTS - 1);
  const high = Math.min(low + 1, POINTS - 1);
  const cpu = Math.min(table.at(low), table.at(high));
  return { cpu, memory: cpu * ratio };
}
