/**
 * Pure conversions between EC2's shapes and the domain's (docs/design.md §2.3): tags, subnets,
 * security groups, images, capacity reservations, instances, their status checks and instance types.
 */

import type {
  CapacityReservation as Ec2CapacityReservation,
  InstanceStatus as Ec2InstanceStatus,
  Image,
  Instance,
  InstanceTypeInfo,
  SecurityGroup,
  Subnet,
  Tag,
} from '@aws-sdk/client-ec2';
import { type CapacityReservation, reservationState } from '../../domain/capacity-reservation.ts';
import type { Architecture, CatalogEntry } from '../../domain/instance-types/catalog.ts';
import type {
  InstanceStatus,
  StatusCategory,
  StatusDetail,
} from '../../domain/interruption/instance-status.ts';
import { type CapacityType, Label } from '../../domain/labels.ts';
import type { PlacementStrategy } from '../../domain/placement-group.ts';
import type {
  ManagedInstance,
  ResolvedNodeClassSubnet,
  ResolvedSecurityGroup,
} from '../../ports/cloud-provider.ts';
import { TagKey } from './tags.ts';

/** EC2's architecture names → Kubernetes'; others (i386, the Mac variants) are not launchable. */
const ARCHITECTURES: Readonly<Record<string, Architecture>> = { x86_64: 'amd64', arm64: 'arm64' };

export function toArchitecture(ec2Architecture: string | undefined): Architecture | undefined {
  return ec2Architecture === undefined ? undefined : ARCHITECTURES[ec2Architecture];
}

/**
 * Tags sorted by key, so identical requests are identical byte for byte. Key and value are both
 * set, which EC2's `Tag` and IAM's `Tag` each accept.
 */
export function toTags(tags: Readonly<Record<string, string>>): { Key: string; Value: string }[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] ?? '' }));
}

export function fromTags(tags: readonly Tag[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { Key, Value } of tags ?? []) if (Key !== undefined) out[Key] = Value ?? '';
  return out;
}

export function providerIdOf(zone: string, instanceId: string): string {
  return `aws:///${zone}/${instanceId}`;
}

export function fromSubnet(subnet: Subnet): ResolvedNodeClassSubnet {
  const resolved = {
    id: subnet.SubnetId ?? '',
    zone: subnet.AvailabilityZone ?? '',
    availableIpAddressCount: subnet.AvailableIpAddressCount ?? 0,
  };
  const zoneID = subnet.AvailabilityZoneId;
  return zoneID === undefined ? resolved : { ...resolved, zoneID };
}

export function fromSecurityGroup(group: SecurityGroup): ResolvedSecurityGroup {
  const id = group.GroupId ?? '';
  return group.GroupName === undefined ? { id } : { id, name: group.GroupName };
}

export interface DescribedImage {
  readonly id: string;
  readonly name?: string;
  readonly creationDate?: string;
  readonly architecture?: Architecture;
}

export function fromImage(image: Image): DescribedImage {
  return {
    id: image.ImageId ?? '',
    name: image.Name,
    creationDate: image.CreationDate,
    architecture: toArchitecture(image.Architecture),
  };
}

function capacityTypeOf(instance: Instance): CapacityType {
  if (instance.InstanceLifecycle === 'spot' || instance.SpotInstanceRequestId !== undefined) {
    return 'spot';
  }
  return instance.CapacityReservationId !== undefined ? 'reserved' : 'on-demand';
}

/** Its subnet and security groups as EC2 describes them (aws: instance/types.go NewInstance). */
function networkOf(instance: Instance): Pick<ManagedInstance, 'network'> {
  if (instance.SubnetId === undefined) return {};
  const securityGroupIds = (instance.SecurityGroups ?? []).flatMap((group) =>
    group.GroupId === undefined ? [] : [group.GroupId],
  );
  const reservation =
    capacityTypeOf(instance) === 'reserved' ? instance.CapacityReservationId : undefined;
  return {
    network: {
      subnetId: instance.SubnetId,
      securityGroupIds,
      ...(reservation === undefined ? {} : { capacityReservationId: reservation }),
    },
  };
}

const MATCH_CRITERIA: ReadonlySet<string> = new Set(['open', 'targeted']);
const RESERVATION_TYPES: ReadonlySet<string> = new Set(['default', 'capacity-block']);

/**
 * A described reservation as the class status records it (aws: ec2nodeclass_status.go
 * `CapacityReservationFromEC2`); undefined for one past its end, or with a match criteria or a
 * type EC2 may add later that Karpenter does not know either.
 */
export function fromCapacityReservation(
  cr: Ec2CapacityReservation,
  now: Date,
): CapacityReservation | undefined {
  const criteria = cr.InstanceMatchCriteria ?? '';
  const reservationType = cr.ReservationType ?? 'default';
  if (!MATCH_CRITERIA.has(criteria) || !RESERVATION_TYPES.has(reservationType)) return undefined;
  if (cr.EndDate !== undefined && cr.EndDate.getTime() <= now.getTime()) return undefined;
  const endTime = cr.EndDate?.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const reservation = {
    id: cr.CapacityReservationId ?? '',
    instanceType: cr.InstanceType ?? '',
    availabilityZone: cr.AvailabilityZone ?? '',
    ownerID: cr.OwnerId ?? '',
    instanceMatchCriteria: criteria as CapacityReservation['instanceMatchCriteria'],
    reservationType: reservationType as CapacityReservation['reservationType'],
    ...(endTime === undefined ? {} : { endTime }),
    interruptible: cr.Interruptible ?? false,
  };
  return { ...reservation, state: reservationState(reservation, now) };
}

/** An instance as listed; `owned` when it carries Nodesmith's tag for `clusterName`. */
export function fromInstance(instance: Instance, clusterName: string): ManagedInstance {
  const tags = fromTags(instance.Tags);
  const instanceId = instance.InstanceId ?? '';
  const zone = instance.Placement?.AvailabilityZone ?? '';
  return {
    instanceId,
    providerID: providerIdOf(zone, instanceId),
    instanceType: instance.InstanceType ?? '',
    zone,
    capacityType: capacityTypeOf(instance),
    launchTime: instance.LaunchTime?.toISOString() ?? '',
    imageId: instance.ImageId,
    ...networkOf(instance),
    state: instance.State?.Name ?? '',
    nodeClaim: tags[TagKey.nodeClaim],
    // Adopted instances keep Karpenter's key; Nodesmith writes its own on what it launches.
    nodePool: tags[TagKey.nodePool] ?? tags[TagKey.karpenterNodePool],
    nodeClass: tags[Label.nodeClass],
    owned: tags[TagKey.ownership] === clusterName,
  };
}

/** Karpenter's label spelling of EC2's names: `Gaudi HL-205` → `gaudi-hl-205`. */
function kebab(text: string | undefined): string | undefined {
  return text?.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Karpenter's category/generation pattern (aws: pkg/providers/instancetype/types.go). */
const FAMILY = /^([a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

function nameParts(
  name: string,
): Pick<CatalogEntry, 'family' | 'size' | 'category' | 'generation'> {
  const dot = name.indexOf('.');
  const parts = { family: name.slice(0, dot), size: name.slice(dot + 1) };
  const match = FAMILY.exec(name);
  if (match === null) return parts;
  return { ...parts, category: match[1], generation: Number(match[3]) };
}

function processorFacts(info: InstanceTypeInfo): Partial<CatalogEntry> {
  const ghz = info.ProcessorInfo?.SustainedClockSpeedInGhz;
  return {
    cpuManufacturer: kebab(info.ProcessorInfo?.Manufacturer),
    cpuSustainedClockSpeedMhz: ghz === undefined ? undefined : Math.round(ghz * 1000),
    hypervisor: info.Hypervisor,
  };
}

function networkFacts(info: InstanceTypeInfo): Partial<CatalogEntry> {
  const network = info.NetworkInfo;
  const defaultCard = network?.NetworkCards?.[network.DefaultNetworkCardIndex ?? 0];
  const gbps = defaultCard?.BaselineBandwidthInGbps;
  const nvme = info.InstanceStorageInfo?.NvmeSupport;
  const cardCount = network?.NetworkCards?.length ?? 1;
  return {
    encryptionInTransitSupported: network?.EncryptionInTransitSupported,
    networkBandwidthMbps: gbps === undefined ? undefined : Math.round(gbps * 1000),
    ebsBandwidthMbps: info.EbsInfo?.EbsOptimizedInfo?.MaximumBandwidthInMbps,
    localNvmeGB:
      nvme !== undefined && nvme !== 'unsupported'
        ? info.InstanceStorageInfo?.TotalSizeInGB
        : undefined,
    maxEnis: defaultCard?.MaximumNetworkInterfaces ?? network?.MaximumNetworkInterfaces,
    ipv4PerEni: network?.Ipv4AddressesPerInterface,
    networkCards: cardCount > 1 ? cardCount : undefined,
    maxEfaInterfaces: network?.EfaInfo?.MaximumEfaInterfaces,
    placementStrategies: placementStrategiesOf(info),
  };
}

const STRATEGIES: readonly string[] = ['cluster', 'partition', 'spread'];

/** The placement group strategies the type supports, as the domain names them. */
function placementStrategiesOf(info: InstanceTypeInfo): PlacementStrategy[] | undefined {
  const supported = info.PlacementGroupInfo?.SupportedStrategies;
  if (supported === undefined) return undefined;
  return supported.filter((s): s is PlacementStrategy => STRATEGIES.includes(s));
}

/** GPUs and accelerators are labelled only when the type has exactly one kind. */
function deviceFacts(info: InstanceTypeInfo): Partial<CatalogEntry> {
  const gpus = info.GpuInfo?.Gpus ?? [];
  const gpu = gpus.length === 1 ? gpus[0] : undefined;
  const neurons = info.NeuronInfo?.NeuronDevices ?? [];
  const neuron = neurons.length === 1 ? neurons[0] : undefined;
  const neuronCount = neuron?.Count;
  return {
    gpuName: kebab(gpu?.Name),
    gpuManufacturer: kebab(gpu?.Manufacturer),
    gpuCount: gpu?.Count,
    gpuMemoryMiB: gpu?.MemoryInfo?.SizeInMiB,
    acceleratorName: kebab(neuron?.Name),
    acceleratorManufacturer: neuron === undefined ? undefined : 'aws',
    acceleratorCount: neuronCount,
    neuronCoreCount:
      neuronCount === undefined ? undefined : neuronCount * (neuron?.CoreInfo?.Count ?? 1),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A catalog entry from DescribeInstanceTypes, or undefined for a type that cannot be sized or
 * booted (no vCPU, memory or launchable architecture). Facts EC2 does not describe (branch ENIs,
 * published max pods, bandwidth of older types) come from the bundled entry when there is one.
 */
export function toCatalogEntry(
  info: InstanceTypeInfo,
  bundled: CatalogEntry | undefined,
): CatalogEntry | undefined {
  const name = info.InstanceType;
  const vcpu = info.VCpuInfo?.DefaultVCpus;
  const memoryMiB = info.MemoryInfo?.SizeInMiB;
  const arch = (info.ProcessorInfo?.SupportedArchitectures ?? []).map(toArchitecture).find(Boolean);
  if (name === undefined || vcpu === undefined || memoryMiB === undefined || arch === undefined) {
    return undefined;
  }
  const described = withoutUndefined({
    ...processorFacts(info),
    ...networkFacts(info),
    ...deviceFacts(info),
  });
  return { ...bundled, ...nameParts(name), name, arch, vcpu, memoryMiB, ...described };
}

type StatusSummary = { Details?: { Name?: string; Status?: string; ImpairedSince?: Date }[] };

function detailsOf(summary: StatusSummary | undefined, category: StatusCategory): StatusDetail[] {
  return (summary?.Details ?? []).map((d) => ({
    category,
    name: d.Name ?? '',
    status: d.Status ?? '',
    ...(d.ImpairedSince === undefined ? {} : { impairedSince: d.ImpairedSince.toISOString() }),
  }));
}

/**
 * One DescribeInstanceStatus entry with every detail (aws: instancestatus.go newHealthStatus):
 * a scheduled event reads as a failed detail named by its code.
 */
export function fromInstanceStatus(status: Ec2InstanceStatus): InstanceStatus {
  return {
    instanceId: status.InstanceId ?? '',
    details: [
      ...detailsOf(status.InstanceStatus, 'InstanceStatus'),
      ...detailsOf(status.SystemStatus, 'SystemStatus'),
      ...detailsOf(status.AttachedEbsStatus, 'EBSStatus'),
      ...(status.Events ?? []).map((e) => ({
        category: 'EventStatus' as const,
        name: e.Code ?? '',
        status: 'failed',
      })),
    ],
  };
}
