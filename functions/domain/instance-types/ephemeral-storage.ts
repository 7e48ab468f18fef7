/**
 * The node's ephemeral-storage capacity as Karpenter estimates it (aws:
 * pkg/providers/instancetype/types.go `ephemeralStorage`): local NVMe under RAID0, else the
 * EC2NodeClass's root volume, else the AMI family's ephemeral device, else the default 20Gi.
 */
import type { AmiFamily, BlockDeviceMapping, EC2NodeClass } from '../node-class.ts';
import { parseUnits } from '../quantity.ts';
import { amiFamilyTraits, DEFAULT_VOLUME_BYTES } from './ami-family-traits.ts';
import type { CatalogEntry } from './catalog.ts';

const GB = 1_000_000_000;

/**
 * What the storage depends on besides the instance type, resolved once per EC2NodeClass: the
 * volume size in bytes, and whether NVMe instance storage replaces it.
 */
export interface EphemeralStoragePlan {
  readonly volumeBytes: number;
  readonly raid0: boolean;
}

function volumeBytes(mapping: BlockDeviceMapping | undefined): number | undefined {
  const size = mapping?.ebs?.volumeSize;
  return size === undefined ? undefined : parseUnits(size);
}

function mappedVolumeBytes(
  family: AmiFamily,
  mappings: readonly BlockDeviceMapping[],
): number | undefined {
  const root = volumeBytes(mappings.find((mapping) => mapping.rootVolume === true));
  if (root !== undefined) return root;
  // A custom AMI's layout is unknown, so Karpenter takes the last mapping as the data volume.
  if (family === 'Custom') return volumeBytes(mappings.at(-1)) ?? DEFAULT_VOLUME_BYTES;
  const device = amiFamilyTraits(family).ephemeralDevice;
  return volumeBytes(mappings.find((mapping) => mapping.deviceName === device));
}

export function ephemeralStoragePlan(
  family: AmiFamily,
  nodeClass: EC2NodeClass | undefined,
): EphemeralStoragePlan {
  const mappings = nodeClass?.spec.blockDeviceMappings ?? [];
  const mapped = mappings.length > 0 ? mappedVolumeBytes(family, mappings) : undefined;
  return {
    volumeBytes: mapped ?? amiFamilyTraits(family).ephemeralVolumeBytes,
    raid0: nodeClass?.spec.instanceStorePolicy === 'RAID0',
  };
}

/** Ephemeral-storage capacity in bytes for one instance type. */
export function ephemeralStorageBytes(plan: EphemeralStoragePlan, entry: CatalogEntry): number {
  if (plan.raid0 && entry.localNvmeGB !== undefined) return entry.localNvmeGB * GB;
  return plan.volumeBytes;
}
