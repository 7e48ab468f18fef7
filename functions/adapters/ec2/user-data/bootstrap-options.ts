/**
 * What every AMI family's bootstrap needs (aws: pkg/providers/amifamily/resolver.go): the
 * cluster, the kubelet settings with max pods pinned to the instance types' estimate, the taints
 * the node registers with, and the labels the kubelet may set on itself.
 */
import type { Labels } from '../../../domain/label-selector.ts';
import { type CapacityType, Label, WELL_KNOWN_LABELS } from '../../../domain/labels.ts';
import type { KubeletConfiguration } from '../../../domain/node-class.ts';
import type { Taint } from '../../../domain/taints.ts';
import type { LaunchContext } from '../../../ports/cloud-provider.ts';
import type { ClusterSettings } from '../cluster-settings.ts';

/** Holds pods off the node until Nodesmith has matched it to its NodeClaim (registration). */
export const UNREGISTERED_TAINT: Taint = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' };

export interface BootstrapOptions {
  readonly cluster: ClusterSettings;
  readonly kubelet: KubeletConfiguration;
  readonly taints: readonly Taint[];
  /** Sorted by key. */
  readonly labels: Labels;
  /** The EC2NodeClass's own user data, merged in. */
  readonly customUserData?: string;
  readonly instanceStorePolicy?: 'RAID0';
}

/** The node the launch asks for, with the cluster and what the launch chose for it. */
export interface BootstrapInput
  extends Pick<LaunchContext, 'nodeClass' | 'labels' | 'taints' | 'startupTaints'> {
  readonly cluster: ClusterSettings;
  readonly capacityType: CapacityType;
  /** The max pods Nodesmith's allocatable estimate assumed for these instance types. */
  readonly maxPods: number;
}

/** Spec taints, then startup taints, then the unregistered taint unless one already matches. */
export function registrationTaints(
  taints: readonly Taint[],
  startupTaints: readonly Taint[],
): Taint[] {
  const all = [...taints, ...startupTaints];
  const has = all.some(
    (t) => t.key === UNREGISTERED_TAINT.key && t.effect === UNREGISTERED_TAINT.effect,
  );
  return has ? all : [...all, UNREGISTERED_TAINT];
}

/** The NodeRestriction admission plugin refuses labels a kubelet sets in these domains. */
const FORBIDDEN_DOMAINS = ['node-restriction.kubernetes.io', 'kubernetes.io', 'k8s.io'];

function isForbiddenLabel(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash < 0 ? '' : key.slice(0, slash);
  return FORBIDDEN_DOMAINS.some(
    (forbidden) => domain === forbidden || domain.endsWith(`.${forbidden}`),
  );
}

/**
 * Labels the instance type and offering give (instance family, CPU, zone ID…): the claim holds
 * those of its cheapest option, but EC2 may fill the fleet with another, so the kubelet is not
 * told them, as Karpenter's NodeClaim carries none at launch (core: pkg/controllers/
 * provisioning/scheduling/nodeclaimtemplate.go `ToNodeClaim`). Left in, they would also give
 * every claim a launch template of its own. Registration writes the launched type's.
 */
function isOfferingLabel(key: string): boolean {
  return WELL_KNOWN_LABELS.has(key) && key !== Label.nodePool;
}

/**
 * The claim's labels plus its capacity type, without those the kubelet may not set and those of
 * the offering; sorted.
 */
export function kubeletLabels(labels: Labels, capacityType: CapacityType): Labels {
  const all: Record<string, string> = { ...labels, [Label.capacityType]: capacityType };
  const out: Record<string, string> = {};
  for (const key of Object.keys(all).sort()) {
    const value = all[key];
    const kept = key === Label.capacityType || !isOfferingLabel(key);
    if (value !== undefined && kept && !isForbiddenLabel(key)) out[key] = value;
  }
  return out;
}

function kubeletSettings(input: BootstrapInput): KubeletConfiguration {
  const kubelet = input.nodeClass.spec.kubelet ?? {};
  const clusterDns = input.cluster.clusterDns;
  const dns =
    (kubelet.clusterDNS?.length ?? 0) === 0 && clusterDns !== undefined
      ? { clusterDNS: [clusterDns] }
      : {};
  return { ...kubelet, ...dns, maxPods: kubelet.maxPods ?? input.maxPods };
}

export function bootstrapOptions(input: BootstrapInput): BootstrapOptions {
  const { userData, instanceStorePolicy } = input.nodeClass.spec;
  return {
    cluster: input.cluster,
    kubelet: kubeletSettings(input),
    taints: registrationTaints(input.taints, input.startupTaints),
    labels: kubeletLabels(input.labels, input.capacityType),
    ...(userData === undefined || userData === '' ? {} : { customUserData: userData }),
    ...(instanceStorePolicy === undefined ? {} : { instanceStorePolicy }),
  };
}
