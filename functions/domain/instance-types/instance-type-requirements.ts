/**
 * The well-known labels a node of an instance type carries, as requirements (aws:
 * pkg/providers/instancetype/types.go `computeRequirements`). A label the type does not have is
 * `DoesNotExist`, not left out: a pod asking for `instance-gpu-count Exists` must not land on
 * an m5.large, and a missing well-known key would read as "anything goes".
 */
import type { CapacityReservation } from '../capacity-reservation.ts';
import { Label } from '../labels.ts';
import { type PlacementGroup, partitionsOf } from '../placement-group.ts';
import { type Requirement, requirement } from '../requirements/requirement.ts';
import type { Requirements } from '../requirements/requirements.ts';
import type { Architecture, CatalogEntry } from './catalog.ts';
import { OFFERED_CAPACITY_TYPES, type OfferingZone } from './offerings.ts';
import {
  makeRequirementPool,
  pooledAbsence,
  pooledValue,
  pooledValues,
  type RequirementPool,
} from './requirement-pool.ts';

/** What every type of one build shares: computed once, not per type. */
export interface SharedRequirements {
  readonly pool: RequirementPool;
  /** Region, Windows build, tenancy, the absent capacity-reservation labels, the placement group. */
  readonly common: readonly Requirement[];
  /** `kubernetes.io/os` by architecture. */
  readonly os: Readonly<Record<Architecture, Requirement>>;
  /** Zone, capacity type and zone id of a type that has offerings. */
  readonly offered: readonly Requirement[];
  /** The same keys with no value, for a type without offerings. */
  readonly notOffered: readonly Requirement[];
}

export interface RequirementsInput {
  readonly entry: CatalogEntry;
  /** Whether the type has offerings (it has an on-demand price in the region). */
  readonly offered: boolean;
  readonly shared: SharedRequirements;
  /** The class's reservations of this type: they add `reserved` and their labels' values. */
  readonly reservations?: readonly CapacityReservation[];
}

type Value = string | number | boolean;

function exactly(pool: RequirementPool, key: string, value: Value): Requirement {
  return pooledValue(pool, key, String(value));
}

/** A label some types lack: `DoesNotExist` on those. */
function optional(pool: RequirementPool, key: string, value: Value | undefined): Requirement {
  return value === undefined ? pooledAbsence(pool, key) : exactly(pool, key, value);
}

export interface SharedRequirementsInput {
  readonly region: string;
  /** True for the Windows AMI families. */
  readonly windows: boolean;
  readonly windowsBuild: string | undefined;
  /** Sorted, distinct zones. */
  readonly zones: readonly OfferingZone[];
  /** The class's placement group, when it selects one. */
  readonly placementGroup?: PlacementGroup;
}

/**
 * Every type of a class in a placement group carries its id, and those of a partition group
 * every partition, so pods can select the group and spread over its partitions (aws:
 * pkg/providers/instancetype/offering/offering.go, `InjectOfferings`).
 */
function placementRequirements(
  pool: RequirementPool,
  group: PlacementGroup | undefined,
): Requirement[] {
  if (group === undefined) return [];
  const partitions = partitionsOf(group);
  const placed = [pooledValue(pool, Label.placementGroupId, group.id)];
  if (partitions.length > 0)
    placed.push(pooledValues(pool, Label.placementGroupPartition, partitions));
  return placed;
}

/** Windows AMIs exist only for amd64; on arm64 no OS value can be satisfied. */
function operatingSystems(
  pool: RequirementPool,
  windows: boolean,
): Readonly<Record<Architecture, Requirement>> {
  return {
    amd64: pooledValue(pool, Label.os, windows ? 'windows' : 'linux'),
    arm64: pooledValues(pool, Label.os, windows ? [] : ['linux']),
  };
}

/**
 * Every priced type is offered in every zone with every capacity type (offerings.ts), so zone
 * and capacity-type requirements are the same for all of them. They include offerings marked
 * unavailable, as Karpenter v1.x does: availability is decided per offering.
 */
function offeringRequirements(
  pool: RequirementPool,
  zones: readonly OfferingZone[],
): Pick<SharedRequirements, 'offered' | 'notOffered'> {
  const zoneNames = zones.map(({ zone }) => zone);
  const zoneIds = [...new Set(zones.flatMap(({ zoneId }) => zoneId ?? []))].sort();
  const capacityTypes = [...OFFERED_CAPACITY_TYPES].sort();
  const offered = [
    pooledValues(pool, Label.zone, zoneNames),
    pooledValues(pool, Label.capacityType, capacityTypes),
  ];
  // Without zone ids (subnets not yet resolved) the label stays undefined rather than empty.
  if (zoneIds.length > 0) offered.push(pooledValues(pool, Label.zoneId, zoneIds));
  const notOffered = offered.map((req) => requirement(req.key, 'In', []));
  return { offered, notOffered };
}

export function sharedRequirements(input: SharedRequirementsInput): SharedRequirements {
  const pool = makeRequirementPool();
  const common = [
    pooledValue(pool, Label.region, input.region),
    optional(pool, Label.windowsBuild, input.windowsBuild),
    // The bundled prices are shared-tenancy prices, so only default tenancy is offered.
    pooledValue(pool, Label.instanceTenancy, 'default'),
    pooledAbsence(pool, Label.capacityReservationId),
    pooledAbsence(pool, Label.capacityReservationType),
    pooledAbsence(pool, Label.capacityReservationInterruptible),
    ...placementRequirements(pool, input.placementGroup),
  ];
  const os = operatingSystems(pool, input.windows);
  return { pool, common, os, ...offeringRequirements(pool, input.zones) };
}

function identityRequirements({ entry, shared: { pool, os } }: RequirementsInput): Requirement[] {
  return [
    exactly(pool, Label.instanceType, entry.name),
    exactly(pool, Label.arch, entry.arch),
    os[entry.arch],
    exactly(pool, Label.instanceFamily, entry.family),
    exactly(pool, Label.instanceSize, entry.size),
    optional(pool, Label.instanceCategory, entry.category),
    optional(pool, Label.instanceGeneration, entry.generation),
    exactly(pool, Label.instanceCapabilityFlex, entry.family.includes('-flex')),
  ];
}

function hardwareRequirements({ entry, shared: { pool } }: RequirementsInput): Requirement[] {
  return [
    exactly(pool, Label.instanceCpu, entry.vcpu),
    optional(pool, Label.instanceCpuManufacturer, entry.cpuManufacturer),
    optional(pool, Label.instanceCpuSustainedClockSpeedMhz, entry.cpuSustainedClockSpeedMhz),
    exactly(pool, Label.instanceMemory, entry.memoryMiB),
    optional(pool, Label.instanceNetworkBandwidth, entry.networkBandwidthMbps),
    optional(pool, Label.instanceEbsBandwidth, entry.ebsBandwidthMbps),
    optional(pool, Label.instanceLocalNvme, entry.localNvmeGB),
    // EC2 reports an empty hypervisor for bare metal, and Karpenter labels it so.
    exactly(pool, Label.instanceHypervisor, entry.hypervisor ?? ''),
    exactly(
      pool,
      Label.instanceEncryptionInTransitSupported,
      entry.encryptionInTransitSupported ?? false,
    ),
  ];
}

/** GPU labels only when EC2 names one kind of GPU; `instance-gpu-memory` is MiB per GPU. */
function acceleratorRequirements({ entry, shared: { pool } }: RequirementsInput): Requirement[] {
  const gpu = entry.gpuName !== undefined;
  const accelerator = entry.acceleratorName !== undefined;
  return [
    optional(pool, Label.instanceGpuName, entry.gpuName),
    optional(pool, Label.instanceGpuManufacturer, gpu ? entry.gpuManufacturer : undefined),
    optional(pool, Label.instanceGpuCount, gpu ? entry.gpuCount : undefined),
    optional(pool, Label.instanceGpuMemory, gpu ? entry.gpuMemoryMiB : undefined),
    optional(pool, Label.instanceAcceleratorName, entry.acceleratorName),
    optional(
      pool,
      Label.instanceAcceleratorManufacturer,
      accelerator ? entry.acceleratorManufacturer : undefined,
    ),
    optional(
      pool,
      Label.instanceAcceleratorCount,
      accelerator ? entry.acceleratorCount : undefined,
    ),
  ];
}

function sortedValues(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * A type with reservations may be reserved, and its reservation labels take their values
 * (aws: pkg/providers/instancetype/types.go `computeRequirements`); each offering still says
 * which one it is.
 */
function reservationRequirements({ shared: { pool }, reservations = [] }: RequirementsInput) {
  if (reservations.length === 0) return [];
  return [
    pooledValues(pool, Label.capacityType, sortedValues(['reserved', ...OFFERED_CAPACITY_TYPES])),
    pooledValues(pool, Label.capacityReservationId, sortedValues(reservations.map((r) => r.id))),
    pooledValues(
      pool,
      Label.capacityReservationType,
      sortedValues(reservations.map((r) => r.reservationType)),
    ),
    pooledValues(
      pool,
      Label.capacityReservationInterruptible,
      sortedValues(reservations.map((r) => String(r.interruptible ?? false))),
    ),
  ];
}

export function instanceTypeRequirements(input: RequirementsInput): Requirements {
  const out = new Map<string, Requirement>();
  const groups = [
    input.shared.common,
    identityRequirements(input),
    input.offered ? input.shared.offered : input.shared.notOffered,
    hardwareRequirements(input),
    acceleratorRequirements(input),
    reservationRequirements(input),
  ];
  for (const group of groups) for (const req of group) out.set(req.key, req);
  return out;
}
