/**
 * Bottlerocket user data: the EC2NodeClass's TOML with Nodesmith's `settings.kubernetes` written
 * over it (aws: pkg/providers/amifamily/bootstrap/bottlerocket.go). The user's other settings
 * are kept; the cluster, max pods, kubelet reservations and the taints are Nodesmith's, and its
 * labels win over the user's labels of the same key.
 */
import { parse, stringify, type TomlTable, type TomlValue } from 'smol-toml';
import type { KubeletConfiguration } from '../../../domain/node-class.ts';
import type { BootstrapOptions } from './bootstrap-options.ts';

/**
 * A table, as opposed to an array or a date. smol-toml builds its tables without a prototype;
 * the ones Nodesmith adds are plain objects.
 */
function isTable(value: TomlValue | undefined): value is TomlTable {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

/**
 * The user's TOML with integers read as BigInt, so that the numbers left are floats and are
 * written back as floats (`1.0` stays `1.0`, not `1`).
 */
function readSettings(text: string | undefined): TomlTable {
  return text === undefined ? {} : parse(text, { integersAsBigInt: true });
}

/** Nodesmith's integers as BigInt too, or they would be written as floats. */
function integer(value: number | undefined): bigint | undefined {
  return value === undefined ? undefined : BigInt(value);
}

function tableAt(parent: TomlTable, key: string): TomlTable {
  const existing = parent[key];
  if (isTable(existing)) return existing;
  const table: TomlTable = {};
  parent[key] = table;
  return table;
}

function setIfDefined(table: TomlTable, key: string, value: TomlValue | undefined): void {
  if (value !== undefined) table[key] = value;
}

/** Bottlerocket names kubelet settings in kebab case and takes the GC thresholds as strings. */
function kubeletSettings(kubernetes: TomlTable, kubelet: KubeletConfiguration): void {
  setIfDefined(kubernetes, 'max-pods', integer(kubelet.maxPods));
  const dns = kubelet.clusterDNS ?? [];
  if (dns.length > 0) kubernetes['cluster-dns-ip'] = dns.length === 1 ? (dns[0] ?? '') : [...dns];
  setIfDefined(
    kubernetes,
    'system-reserved',
    kubelet.systemReserved && { ...kubelet.systemReserved },
  );
  setIfDefined(kubernetes, 'kube-reserved', kubelet.kubeReserved && { ...kubelet.kubeReserved });
  setIfDefined(kubernetes, 'eviction-hard', kubelet.evictionHard && { ...kubelet.evictionHard });
  setIfDefined(
    kubernetes,
    'eviction-max-pod-grace-period',
    integer(kubelet.evictionMaxPodGracePeriod),
  );
  const high = kubelet.imageGCHighThresholdPercent;
  const low = kubelet.imageGCLowThresholdPercent;
  setIfDefined(
    kubernetes,
    'image-gc-high-threshold-percent',
    high === undefined ? undefined : String(high),
  );
  setIfDefined(
    kubernetes,
    'image-gc-low-threshold-percent',
    low === undefined ? undefined : String(low),
  );
  setIfDefined(kubernetes, 'cpu-cfs-quota-enforced', kubelet.cpuCFSQuota);
}

/** `{ key: ['value:Effect'] }`, Bottlerocket's shape for several taints of one key. */
function nodeTaints(options: BootstrapOptions): TomlTable {
  const taints: Record<string, string[]> = {};
  for (const { key, value, effect } of options.taints) {
    taints[key] = [...(taints[key] ?? []), `${value ?? ''}:${effect}`];
  }
  return taints;
}

/** Local NVMe becomes the containers' and pods' storage, as Karpenter's RAID0 policy asks. */
function mountInstanceStorage(settings: TomlTable): void {
  tableAt(settings, 'bootstrap-commands')['000-mount-instance-storage'] = {
    commands: [
      ['apiclient', 'ephemeral-storage', 'init'],
      [
        'apiclient',
        'ephemeral-storage',
        'bind',
        '--dirs',
        '/var/lib/containerd',
        '/var/lib/kubelet',
        '/var/log/pods',
      ],
    ],
    mode: 'always',
    essential: true,
  };
}

export function bottlerocketUserData(options: BootstrapOptions): string {
  const root = readSettings(options.customUserData);
  const settings = tableAt(root, 'settings');
  const kubernetes = tableAt(settings, 'kubernetes');
  kubernetes['cluster-name'] = options.cluster.name;
  kubernetes['api-server'] = options.cluster.endpoint;
  kubernetes['cluster-certificate'] = options.cluster.certificateAuthority;
  kubeletSettings(kubernetes, options.kubelet);
  const userLabels = kubernetes['node-labels'];
  kubernetes['node-labels'] = { ...(isTable(userLabels) ? userLabels : {}), ...options.labels };
  kubernetes['node-taints'] = nodeTaints(options);
  if (options.instanceStorePolicy === 'RAID0') mountInstanceStorage(settings);
  return stringify(root, { numbersAsFloat: true });
}
