/**
 * AL2023 user data: a MIME document whose last part is the nodeadm `NodeConfig` Nodesmith
 * generates, after the EC2NodeClass's own user data (aws: pkg/providers/amifamily/bootstrap/
 * nodeadm.go). nodeadm merges NodeConfig parts in order, so the generated one has the last word
 * on the cluster, max pods and taints, while the user's other settings and scripts are kept.
 */
import { parse, stringify } from 'yaml';
import type { KubeletConfiguration } from '../../../domain/node-class.ts';
import type { BootstrapOptions } from './bootstrap-options.ts';
import { ContentType, isMime, type MimePart, parseMime, part, serializeMime } from './mime.ts';

const KUBELET_FIELDS: readonly (keyof KubeletConfiguration)[] = [
  'clusterDNS',
  'cpuCFSQuota',
  'evictionHard',
  'evictionMaxPodGracePeriod',
  'evictionSoft',
  'evictionSoftGracePeriod',
  'imageGCHighThresholdPercent',
  'imageGCLowThresholdPercent',
  'kubeReserved',
  'maxPods',
  'podsPerCore',
  'systemReserved',
];

/**
 * The kubelet's inline configuration. Taints go in `registerWithTaints` rather than the
 * deprecated `--register-with-taints` flag, as Karpenter writes them.
 */
function kubeletConfig(options: BootstrapOptions): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of KUBELET_FIELDS) {
    const value = options.kubelet[field];
    if (value !== undefined) config[field] = value;
  }
  config.registerWithTaints = options.taints.map(({ key, value, effect }) =>
    value === undefined || value === '' ? { key, effect } : { key, value, effect },
  );
  return config;
}

/** `--node-labels="a=1,b=2"`, sorted, as Karpenter quotes it. */
export function nodeLabelsFlag(labels: BootstrapOptions['labels']): string | undefined {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}=${value}`);
  return pairs.length === 0 ? undefined : `--node-labels="${pairs.join(',')}"`;
}

export function nodeConfigYaml(options: BootstrapOptions): string {
  const { cluster } = options;
  const flag = nodeLabelsFlag(options.labels);
  const document = {
    apiVersion: 'node.eks.aws/v1alpha1',
    kind: 'NodeConfig',
    spec: {
      cluster: {
        apiServerEndpoint: cluster.endpoint,
        certificateAuthority: cluster.certificateAuthority,
        ...(cluster.serviceCidr === undefined ? {} : { cidr: cluster.serviceCidr }),
        name: cluster.name,
      },
      kubelet: { config: kubeletConfig(options), ...(flag === undefined ? {} : { flags: [flag] }) },
      ...(options.instanceStorePolicy === 'RAID0'
        ? { instance: { localStorage: { strategy: 'RAID0' } } }
        : {}),
    },
  };
  return `# Nodesmith generated NodeConfig\n${stringify(document, { lineWidth: 0 })}`;
}

function isYamlMapping(text: string): boolean {
  try {
    const value: unknown = parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The user's parts: a MIME document's own, else one NodeConfig (YAML) or shell script part. */
function customParts(userData: string | undefined): MimePart[] {
  if (userData === undefined) return [];
  if (isMime(userData)) return parseMime(userData);
  return [
    part(isYamlMapping(userData) ? ContentType.nodeConfig : ContentType.shellScript, userData),
  ];
}

export function nodeadmUserData(options: BootstrapOptions): string {
  const generated = part(ContentType.nodeConfig, nodeConfigYaml(options));
  return serializeMime([...customParts(options.customUserData), generated]);
}
