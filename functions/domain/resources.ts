import { parseMillis, parseUnits } from './quantity.ts';

/**
 * Resource amounts keyed by resource name. `cpu` is in millicores; every other resource is in
 * its base unit: bytes for `memory` and `ephemeral-storage`, a count for `pods` and devices.
 * Values are whole numbers, so sums and comparisons are exact.
 */
export type Resources = Readonly<Record<string, number>>;

export const ResourceName = {
  cpu: 'cpu',
  memory: 'memory',
  ephemeralStorage: 'ephemeral-storage',
  pods: 'pods',
  nvidiaGpu: 'nvidia.com/gpu',
  amdGpu: 'amd.com/gpu',
  neuron: 'aws.amazon.com/neuron',
  neuronCore: 'aws.amazon.com/neuroncore',
  habanaGaudi: 'habana.ai/gaudi',
  podEni: 'vpc.amazonaws.com/pod-eni',
  efa: 'vpc.amazonaws.com/efa',
} as const;

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export const EMPTY: Resources = Object.freeze({});

/** Parses one resource amount from its Kubernetes quantity into the unit `Resources` uses. */
export function parseResource(name: string, quantity: string | number): number {
  return name === ResourceName.cpu ? parseMillis(quantity) : parseUnits(quantity);
}

/** Parses a Kubernetes ResourceList (`{cpu: "500m", memory: "1Gi"}`). */
export function parseResources(
  list: Readonly<Record<string, string | number>> | undefined,
): Resources {
  if (list === undefined) return EMPTY;
  const out: Record<string, number> = {};
  for (const [name, quantity] of Object.entries(list)) out[name] = parseResource(name, quantity);
  return out;
}

export function add(...lists: readonly Resources[]): Resources {
  const out: Record<string, number> = {};
  for (const list of lists) {
    for (const name in list) out[name] = (out[name] ?? 0) + (list[name] ?? 0);
  }
  return out;
}

export function subtract(from: Resources, amount: Resources): Resources {
  const out: Record<string, number> = { ...from };
  for (const name in amount) out[name] = (out[name] ?? 0) - (amount[name] ?? 0);
  return out;
}

/** Element-wise maximum: what a set of alternatives needs at worst. */
export function max(...lists: readonly Resources[]): Resources {
  const out: Record<string, number> = {};
  for (const list of lists) {
    for (const name in list) out[name] = Math.max(out[name] ?? 0, list[name] ?? 0);
  }
  return out;
}

/** Whether every requested amount is available; a resource missing from `available` is zero. */
export function fits(requests: Resources, available: Resources): boolean {
  for (const name in requests) {
    const wanted = requests[name] ?? 0;
    if (wanted > 0 && wanted > (available[name] ?? 0)) return false;
  }
  return true;
}

/** The first resource that does not fit, for reasons shown to users. */
export function firstShortfall(requests: Resources, available: Resources): string | undefined {
  for (const name of Object.keys(requests).sort()) {
    const wanted = requests[name] ?? 0;
    if (wanted > 0 && wanted > (available[name] ?? 0)) return name;
  }
  return undefined;
}

/** Formats an amount for people: `1500m`, `2Gi`, `3`. */
export function formatResource(name: string, amount: number): string {
  if (name === ResourceName.cpu) return amount % 1000 === 0 ? `${amount / 1000}` : `${amount}m`;
  if (name === ResourceName.memory || name === ResourceName.ephemeralStorage) {
    if (amount % GiB === 0) return `${amount / GiB}Gi`;
    if (amount % MiB === 0) return `${amount / MiB}Mi`;
  }
  return `${amount}`;
}

/** Amounts as a Kubernetes ResourceList (`{cpu: "1500m", memory: "2Gi"}`), the inverse of `parseResources`. */
export function toResourceList(resources: Resources): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, amount] of Object.entries(resources)) out[name] = formatResource(name, amount);
  return out;
}
