/**
 * Well-known label and annotation keys, and the label-domain rules Karpenter enforces, as of
 * Karpenter v1.14.0: core `pkg/apis/v1/labels.go` (kubernetes-sigs/karpenter) and the AWS
 * provider's `pkg/apis/v1/labels.go` `init()` and `pkg/operator/operator.go`
 * (aws/karpenter-provider-aws), which extend the core lists at start-up.
 */

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
  placementGroupId: 'karpenter.k8s.aws/placement-group-id',
  placementGroupPartition: 'karpenter.k8s.aws/placement-group-partition',
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

/**
 * Labels Karpenter understands and lets NodePools and pods narrow: core `WellKnownLabels`, then
 * what the AWS provider's `init()` inserts. A pod may require them of a NodePool that leaves them
 * open, since the instance types give them values.
 */
export const WELL_KNOWN_LABELS: ReadonlySet<string> = new Set([
  // core
  Label.nodePool,
  Label.zone,
  Label.region,
  Label.instanceType,
  Label.arch,
  Label.os,
  Label.capacityType,
  Label.windowsBuild,
  // AWS provider
  Label.capacityReservationId,
  Label.capacityReservationType,
  Label.capacityReservationInterruptible,
  Label.instanceHypervisor,
  Label.instanceEncryptionInTransitSupported,
  Label.instanceCategory,
  Label.instanceCapabilityFlex,
  Label.instanceFamily,
  Label.instanceGeneration,
  Label.instanceSize,
  Label.instanceLocalNvme,
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
  Label.zoneId,
  Label.instanceTenancy,
  Label.placementGroupId,
  Label.placementGroupPartition,
]);

/**
 * Domains Karpenter reserves (core `RestrictedLabelDomains` plus the AWS provider's). Since
 * Karpenter v1.9.0 (core 37f5de7, "simplify RestrictedLabel filtering") `kubernetes.io` and
 * `k8s.io` are no longer reserved, and a domain matches only itself or its subdomains.
 */
const RESTRICTED_LABEL_DOMAINS = ['karpenter.sh', 'karpenter.k8s.aws'];
/** Core `RestrictedLabels`: keys that would interfere with provisioning. */
const RESTRICTED_LABELS: ReadonlySet<string> = new Set([Label.hostname]);

/**
 * Aliases and the well-known keys Karpenter rewrites them to before scheduling: core
 * `NormalizedLabels` (deprecated beta keys), plus the EBS CSI driver's zone key, which the AWS
 * provider adds in `pkg/operator/operator.go` so that volumes the driver pinned to a zone
 * (StorageClass `allowedTopologies`, PersistentVolume node affinity) constrain the node's zone.
 */
export const NORMALIZED_LABELS: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': Label.zone,
  'beta.kubernetes.io/arch': Label.arch,
  'beta.kubernetes.io/os': Label.os,
  'beta.kubernetes.io/instance-type': Label.instanceType,
  'failure-domain.beta.kubernetes.io/region': Label.region,
  'topology.ebs.csi.aws.com/zone': Label.zone,
};

export function normalizeLabelKey(key: string): string {
  // Own keys only: a key such as `constructor` would otherwise find Object's own members.
  return Object.hasOwn(NORMALIZED_LABELS, key) ? (NORMALIZED_LABELS[key] as string) : key;
}

export function labelDomain(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inRestrictedDomain(key: string): boolean {
  const domain = labelDomain(key);
  return RESTRICTED_LABEL_DOMAINS.some(
    (restricted) => domain === restricted || domain.endsWith(`.${restricted}`),
  );
}

/**
 * Whether Karpenter keeps the key off the custom labels it stamps on a node: well-known labels
 * (the instance type gives them), reserved domains, and `kubernetes.io/hostname` (core
 * `nodeclaimtemplate.go`, `resolveCustomLabelsFromRequirements`).
 */
export function isRestrictedNodeLabel(key: string): boolean {
  return WELL_KNOWN_LABELS.has(key) || inRestrictedDomain(key) || RESTRICTED_LABELS.has(key);
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
