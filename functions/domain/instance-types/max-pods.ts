/**
 * How many pods a node of a type may run (aws: pkg/providers/instancetype/types.go `pods`,
 * `ENILimitedPods`).
 */
import type { KubeletConfiguration } from '../node-class.ts';
import type { AmiFamilyTraits } from './ami-family-traits.ts';
import type { CatalogEntry } from './catalog.ts';

/** kubelet's own default, used where pod density is not tied to ENIs (Windows). */
export const KUBELET_DEFAULT_MAX_PODS = 110;

/**
 * The VPC CNI gives every pod a secondary IP of an ENI on the default network card: each ENI
 * keeps its primary IP, and two host-network pods (aws-node, kube-proxy) need none. ENIs
 * reserved for other uses (custom networking) hold no pod IPs.
 */
export function eniLimitedPods(entry: CatalogEntry, reservedEnis: number): number {
  // Without published ENI limits only the documented count is known; it reserves no ENIs.
  if (entry.maxEnis === undefined || entry.ipv4PerEni === undefined) return entry.maxPods ?? 0;
  const usableEnis = Math.max(entry.maxEnis - reservedEnis, 0);
  if (usableEnis === 0) return 0;
  return usableEnis * (entry.ipv4PerEni - 1) + 2;
}

export interface MaxPodsInput {
  readonly entry: CatalogEntry;
  readonly traits: AmiFamilyTraits;
  readonly kubelet: KubeletConfiguration | undefined;
  readonly reservedEnis: number;
}

/** kubelet.maxPods, else the ENI limit (or 110), capped by podsPerCore × vCPU where supported. */
export function maxPods({ entry, traits, kubelet, reservedEnis }: MaxPodsInput): number {
  let count: number;
  if (kubelet?.maxPods !== undefined) count = kubelet.maxPods;
  else if (traits.eniLimitedPodDensity) count = eniLimitedPods(entry, reservedEnis);
  else count = KUBELET_DEFAULT_MAX_PODS;
  const podsPerCore = kubelet?.podsPerCore ?? 0;
  if (podsPerCore > 0 && traits.podsPerCore) count = Math.min(podsPerCore * entry.vcpu, count);
  return count;
}
