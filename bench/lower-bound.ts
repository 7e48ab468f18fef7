/**
 * The fractional lower bound on cost: the cheapest mix of instance types, allowed to be
 * fractional, whose allocatable CPU and memory together cover the total requests. A linear
 * program with two constraints has an optimal vertex using at most two types, so checking
 * every single type and every pair is exact.
 */
export interface PricedCapacity {
  readonly name: string;
  readonly cpu: number;
  readonly memory: number;
  readonly price: number;
}

function single(t: PricedCapacity, cpu: number, memory: number): number {
  return t.price * Math.max(cpu / t.cpu, memory / t.memory);
}

function pair(a: PricedCapacity, b: PricedCapacity, cpu: number, memory: number): number {
  // Both constraints tight: a.cpu x + b.cpu y = cpu, a.memory x + b.memory y = memory.
  const det = a.cpu * b.memory - b.cpu * a.memory;
  if (det === 0) return Number.POSITIVE_INFINITY;
  const x = (cpu * b.memory - b.cpu * memory) / det;
  const y = (a.cpu * memory - cpu * a.memory) / det;
  return x < 0 || y < 0 ? Number.POSITIVE_INFINITY : a.price * x + b.price * y;
}

export function fractionalLowerBound(
  types: readonly PricedCapacity[],
  cpu: number,
  memory: number,
): number {
  const usable = types.filter((t) => t.cpu > 0 && t.memory > 0 && t.price > 0);
  let best = Number.POSITIVE_INFINITY;
  for (const t of usable) best = Math.min(best, single(t, cpu, memory));
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const a = usable[i];
      const b = usable[j];
      if (a !== undefined && b !== undefined) best = Math.min(best, pair(a, b, cpu, memory));
    }
  }
  return best;
}
