/** Well-known label and annotation keys, and the label-domain rules Karpenter enforces. */

export const Label = {
  nodePool: 'karpenter.sh/nodepool',
  capacityType: 'karpenter.sh/capacity-type',
  registered: 'karpenter.sh/registered',
  initialized: 'karpenter.sh/initialized',
  doNotSyncTaints: 'karpenter.sh/do-not-sync-taints',
  hostname: 'kubernetes.io/hostname',
  zone: 'topology.kubernetes.io/zone',
  region: 'topology.kubernetes.io/region',
  zoneId: 'topology.k8s.aws/zone-id',
  instanceType: 'node.kubernetes.io/instance-type',
  arch: 'kubernetes.io/arch',
  os: 'kubernetes.io/os',
  windowsBuild: 'node.kubernetes.io/windows-build',
  nodeClass: 'karpenter.k8s.aws/ec2nodeclass',
  instanceHypervisor: 'karpenter.k8s.aws/instance-hypervisor',
  instanceEncryptionInTransitSupported:
    'karpenter.k8s.aws/instance-encryption-in-transit-supported',
  instanceCategory: 'karpenter.k8s.aws/instance-category',
  instanceFamily: 'karpenter.k8s.aws/instance-family',
  instanceGeneration: 'karpenter.k8s.aws/instance-generation',
  instanceLocalNvme: 'karpenter.k8s.aws/instance-local-nvme',
  instanceSize: 'karpenter.k8s.aws/instance-size',
  instanceCpu: 'karpenter.k8s.aws/instance-cpu',
  instanceCpuManufacturer: 'karpenter.k8s.aws/instance-cpu-manufacturer',
  instanceCpuSustainedClockSpeedMhz: 'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz',
  instanceMemory: 'karpenter.k8s.aws/instance-memory',
  instanceEbsBandwidth: 'karpenter.k8s.aws/instance-ebs-bandwidth',
  instanceNetworkBandwidth: 'karpenter.k8s.aws/instance-network-bandwidth',
  instanceGpuName: 'karpenter.k8s.aws/instance-gpu-name',
  instanceGpuManufacturer: 'karpenter.k8s.aws/instance-gpu-manufacturer',
  instanceGpuCount: 'karpenter.k8s.aws/instance-gpu-count',
  instanceGpuMemory: 'karpenter.k8s.aws/instance-gpu-memory',
  instanceAcceleratorName: 'karpenter.k8s.aws/instance-accelerator-name',
  instanceAcceleratorManufacturer: 'karpenter.k8s.aws/instance-accelerator-manufacturer',
  instanceAcceleratorCount: 'karpenter.k8s.aws/instance-accelerator-count',
  instanceCapabilityFlex: 'karpenter.k8s.aws/instance-capability-flex',
  instanceTenancy: 'karpenter.k8s.aws/instance-tenancy',
  capacityReservationId: 'karpenter.k8s.aws/capacity-reservation-id',
  capacityReservationType: 'karpenter.k8s.aws/capacity-reservation-type',
  capacityReservationInterruptible: 'karpenter.k8s.aws/capacity-reservation-interruptible',
} as const;

export const Annotation = {
  doNotDisrupt: 'karpenter.sh/do-not-disrupt',
  nodePoolHash: 'karpenter.sh/nodepool-hash',
  nodePoolHashVersion: 'karpenter.sh/nodepool-hash-version',
  nodeClassHash: 'karpenter.k8s.aws/ec2nodeclass-hash',
  nodeClassHashVersion: 'karpenter.k8s.aws/ec2nodeclass-hash-version',
} as const;

export const CapacityType = {
  reserved: 'reserved',
  spot: 'spot',
  onDemand: 'on-demand',
} as const;
export type CapacityType = (typeof CapacityType)[keyof typeof CapacityType];

/** Labels Karpenter understands and lets NodePools and pods narrow, although their domains are restricted. */
export const WELL_KNOWN_LABELS: ReadonlySet<string> = new Set([
  Label.nodePool,
  Label.capacityType,
  Label.zone,
  Label.region,
  Label.zoneId,
  Label.instanceType,
  Label.arch,
  Label.os,
  Label.windowsBuild,
  Label.nodeClass,
  Label.instanceHypervisor,
  Label.instanceEncryptionInTransitSupported,
  Label.instanceCategory,
  Label.instanceFamily,
  Label.instanceGeneration,
  Label.instanceLocalNvme,
  Label.instanceSize,
  Label.instanceCpu,
  Label.instanceCpuManufacturer,
  Label.instanceCpuSustainedClockSpeedMhz,
  Label.instanceMemory,
  Label.instanceEbsBandwidth,
  Label.instanceNetworkBandwidth,
  Label.instanceGpuName,
  Label.instanceGpuManufacturer,
  Label.instanceGpuCount,
  Label.instanceGpuMemory,
  Label.instanceAcceleratorName,
  Label.instanceAcceleratorManufacturer,
  Label.instanceAcceleratorCount,
  Label.instanceCapabilityFlex,
  Label.instanceTenancy,
  Label.capacityReservationId,
  Label.capacityReservationType,
  Label.capacityReservationInterruptible,
]);

const RESTRICTED_LABEL_DOMAINS = ['kubernetes.io', 'k8s.io', 'karpenter.sh', 'karpenter.k8s.aws'];
const LABEL_DOMAIN_EXCEPTIONS = [
  'kops.k8s.io',
  'node.kubernetes.io',
  'node-restriction.kubernetes.io',
];
const RESTRICTED_LABELS: ReadonlySet<string> = new Set([Label.hostname]);

/** Deprecated beta keys and the stable keys Karpenter rewrites them to. */
export const NORMALIZED_LABELS: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': Label.zone,
  'failure-domain.beta.kubernetes.io/region': Label.region,
  'beta.kubernetes.io/arch': Label.arch,
  'beta.kubernetes.io/os': Label.os,
  'beta.kubernetes.io/instance-type': Label.instanceType,
};

export function normalizeLabelKey(key: string): string {
  // Own keys only: a key such as `constructor` would otherwise find Object's own members.
  return Object.hasOwn(NORMALIZED_LABELS, key) ? (NORMALIZED_LABELS[key] as string) : key;
}

export function labelDomain(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/**
 * Whether Karpenter reserves the key: a restricted domain that is not well known or excepted.
 * Domains are compared by plain suffix, as Karpenter's `strings.HasSuffix` does, so
 * `example-k8s.io` is restricted and `mynode.kubernetes.io` is excepted.
 */
export function isRestrictedNodeLabel(key: string): boolean {
  if (WELL_KNOWN_LABELS.has(key)) return true;
  const domain = labelDomain(key);
  if (LABEL_DOMAIN_EXCEPTIONS.some((exception) => domain.endsWith(exception))) return false;
  if (RESTRICTED_LABEL_DOMAINS.some((restricted) => domain.endsWith(restricted))) return true;
  return RESTRICTED_LABELS.has(key);
}

/**
 * Why a requirement key may not be used, or undefined when it may. Well-known labels are
 * allowed; other keys in restricted domains, and `kubernetes.io/hostname`, are not.
 */
export function restrictedLabelReason(key: string): string | undefined {
  if (WELL_KNOWN_LABELS.has(key)) return undefined;
  if (!isRestrictedNodeLabel(key)) return undefined;
  return `label ${key} is restricted; specify a well known label or a custom label that does not use a restricted domain (${RESTRICTED_LABEL_DOMAINS.join(', ')})`;
}
