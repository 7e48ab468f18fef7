/**
 * A node's capacity as Karpenter estimates it before the node exists (aws:
 * pkg/providers/instancetype/types.go `computeCapacity`). Extended resources a type lacks are
 * left out rather than set to zero: a missing resource reads as zero everywhere.
 */
import { isWindows } from '../node-class.ts';
import { MiB, ResourceName, type Resources } from '../resources.ts';
import type { CatalogEntry } from './catalog.ts';
import { ephemeralStorageBytes } from './ephemeral-storage.ts';
import { maxPods } from './max-pods.ts';
import { efaOnlyOnDefaultCard, type NodeClassSettings } from './node-class-settings.ts';

/** The per-pod IP resource the VPC resource controller advertises on Windows nodes. */
export const PRIVATE_IPV4_ADDRESS = 'vpc.amazonaws.com/PrivateIPv4Address';

/** Graviton reserves this much for the contiguous memory allocator; the OS never sees it. */
const GRAVITON_CMA_MIB = 64;

/** MemoryInfo.SizeInMiB less Graviton's CMA and the VM overhead (rounded up to whole MiB). */
export function memoryCapacityBytes(entry: CatalogEntry, vmMemoryOverheadPercent: number): number {
  const mib = entry.arch === 'arm64' ? entry.memoryMiB - GRAVITON_CMA_MIB : entry.memoryMiB;
  const bytes = mib * MiB;
  const overheadMiB = Math.ceil((bytes * vmMemoryOverheadPercent) / 1024 / 1024);
  return bytes - overheadMiB * MiB;
}

function countByManufacturer(entry: CatalogEntry, manufacturer: string): number {
  return entry.gpuManufacturer === manufacturer ? (entry.gpuCount ?? 0) : 0;
}

/**
 * EFA interfaces: the class's `efa-only` ones when it spells its interfaces out, else all the
 * type supports (aws: pkg/providers/instancetype/types.go `efas`).
 */
function efaInterfaces(entry: CatalogEntry, settings: NodeClassSettings): number {
  const interfaces = settings.networkInterfaces;
  if (interfaces === undefined) return entry.maxEfaInterfaces ?? 0;
  return interfaces.filter((ni) => ni.interfaceType === 'efa-only').length;
}

/** Devices and network resources, by the resource names their device plugins advertise. */
function extendedResources(entry: CatalogEntry, settings: NodeClassSettings): Resources {
  const amounts: readonly (readonly [string, number])[] = [
    [ResourceName.nvidiaGpu, countByManufacturer(entry, 'nvidia')],
    [ResourceName.amdGpu, countByManufacturer(entry, 'amd')],
    [ResourceName.habanaGaudi, countByManufacturer(entry, 'habana')],
    // Inferentia and Trainium are Neuron devices; other inference accelerators are not.
    [
      ResourceName.neuron,
      entry.acceleratorManufacturer === 'aws' ? (entry.acceleratorCount ?? 0) : 0,
    ],
    [ResourceName.neuronCore, entry.neuronCoreCount ?? 0],
    [ResourceName.podEni, entry.podEnis ?? 0],
    [ResourceName.efa, efaInterfaces(entry, settings)],
  ];
  return Object.fromEntries(amounts.filter(([, amount]) => amount > 0));
}

/**
 * On Windows the VPC resource controller, not the CNI, gives each pod a secondary IP of the
 * primary ENI; it advertises them as a resource that it adds to every Windows pod's requests.
 */
function windowsResources(entry: CatalogEntry, settings: NodeClassSettings): Resources {
  if (!isWindows(settings.amiFamily) || entry.arch !== 'amd64') return {};
  return { [PRIVATE_IPV4_ADDRESS]: Math.max((entry.ipv4PerEni ?? 1) - 1, 0) };
}

export function capacity(entry: CatalogEntry, settings: NodeClassSettings): Resources {
  return {
    [ResourceName.cpu]: entry.vcpu * 1000,
    [ResourceName.memory]: memoryCapacityBytes(entry, settings.vmMemoryOverheadPercent),
    [ResourceName.ephemeralStorage]: ephemeralStorageBytes(settings.storage, entry),
    [ResourceName.pods]: maxPods({
      entry,
      traits: settings.traits,
      kubelet: settings.kubelet,
      // aws: types.go `ENILimitedPods` subtracts them with the reserved ENIs.
      reservedEnis: settings.reservedEnis + efaOnlyOnDefaultCard(settings),
    }),
    ...extendedResources(entry, settings),
    ...windowsResources(entry, settings),
  };
}
