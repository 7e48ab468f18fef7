/**
 * The kubelet flags Karpenter passes to the bootstrap scripts of the EKS-optimized AL2 and
 * Windows AMIs (aws: pkg/providers/amifamily/bootstrap/bootstrap.go `kubeletExtraArgs`): the
 * labels, the taints the node registers with, then the EC2NodeClass's kubelet settings.
 */
import type { KubeletConfiguration } from '../../../domain/node-class.ts';
import type { Taint } from '../../../domain/taints.ts';
import type { BootstrapOptions } from './bootstrap-options.ts';

/** Go's `%q` of a plain string: JSON's escaping of `"` and `\` is the same. */
const quoted = (text: string): string => JSON.stringify(text);

/** Kubernetes' `Taint.ToString`: `key=value:Effect`, or `key:Effect` without a value. */
function taintString(taint: Taint): string {
  const value = taint.value === undefined || taint.value === '' ? '' : `=${taint.value}`;
  return `${taint.key}${value}:${taint.effect}`;
}

/** `--name="k<sep>v,…"`, keys sorted (Karpenter ranges over a Go map, in no fixed order). */
function mapFlag(
  name: string,
  values: Readonly<Record<string, string>> | undefined,
  separator: string,
): string[] {
  const keys = Object.keys(values ?? {}).sort();
  if (keys.length === 0) return [];
  return [`${name}=${quoted(keys.map((key) => `${key}${separator}${values?.[key]}`).join(','))}`];
}

function numberFlag(name: string, value: number | boolean | undefined): string[] {
  return value === undefined ? [] : [`${name}=${value}`];
}

function kubeletFlags(kubelet: KubeletConfiguration): string[] {
  return [
    ...numberFlag('--max-pods', kubelet.maxPods),
    ...numberFlag('--pods-per-core', kubelet.podsPerCore),
    ...mapFlag('--system-reserved', kubelet.systemReserved, '='),
    ...mapFlag('--kube-reserved', kubelet.kubeReserved, '='),
    ...mapFlag('--eviction-hard', kubelet.evictionHard, '<'),
    ...mapFlag('--eviction-soft', kubelet.evictionSoft, '<'),
    ...mapFlag('--eviction-soft-grace-period', kubelet.evictionSoftGracePeriod, '='),
    ...numberFlag('--eviction-max-pod-grace-period', kubelet.evictionMaxPodGracePeriod),
    ...numberFlag('--image-gc-high-threshold', kubelet.imageGCHighThresholdPercent),
    ...numberFlag('--image-gc-low-threshold', kubelet.imageGCLowThresholdPercent),
    ...numberFlag('--cpu-cfs-quota', kubelet.cpuCFSQuota),
  ];
}

/** Labels (when any), taints (always, even empty), then the kubelet settings. */
export function kubeletExtraArgs(options: BootstrapOptions): string {
  const labels = Object.entries(options.labels).map(([key, value]) => `${key}=${value}`);
  return [
    ...(labels.length === 0 ? [] : [`--node-labels=${quoted(labels.join(','))}`]),
    `--register-with-taints=${quoted(options.taints.map(taintString).join(','))}`,
    ...kubeletFlags(options.kubelet),
  ].join(' ');
}
