/**
 * The resources Karpenter sets aside for the kubelet and container runtime when no
 * `kubeReserved` is configured (aws: pkg/providers/instancetype/types.go `kubeReservedResources`).
 */
import { GiB, MiB, ResourceName, type Resources } from '../resources.ts';

/** CPU reservation bands: the percentages the EKS AMIs and Bottlerocket apply per core. */
const CPU_BANDS: readonly {
  readonly fromMillis: number;
  readonly toMillis: number;
  readonly share: number;
}[] = [
  { fromMillis: 0, toMillis: 1000, share: 0.06 },
  { fromMillis: 1000, toMillis: 2000, share: 0.01 },
  { fromMillis: 2000, toMillis: 4000, share: 0.005 },
  { fromMillis: 4000, toMillis: 2 ** 31, share: 0.0025 },
];

/** 6 % of the first core, 1 % of the second, 0.5 % of cores 3–4, 0.25 % of the rest. */
export function kubeReservedCpuMillis(cpuMillis: number): number {
  let reserved = 0;
  for (const band of CPU_BANDS) {
    if (cpuMillis < band.fromMillis) continue;
    const span = Math.min(cpuMillis, band.toMillis) - band.fromMillis;
    // Truncated per band, as Karpenter converts each band's share to whole millicores.
    reserved += Math.trunc(span * band.share);
  }
  return reserved;
}

/** 255Mi plus 11Mi per pod. */
export function kubeReservedMemoryBytes(pods: number): number {
  return (11 * pods + 255) * MiB;
}

/**
 * The defaults, with each key of `overrides` (already parsed kubelet.kubeReserved) replacing
 * the default of the same resource.
 */
export function kubeReserved(cpuMillis: number, pods: number, overrides: Resources): Resources {
  return {
    [ResourceName.cpu]: kubeReservedCpuMillis(cpuMillis),
    [ResourceName.memory]: kubeReservedMemoryBytes(pods),
    [ResourceName.ephemeralStorage]: GiB,
    ...overrides,
  };
}
