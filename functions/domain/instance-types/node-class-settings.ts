/**
 * Everything about an EC2NodeClass (and the operator options) that shapes capacity and
 * overhead, resolved once per build so that per-type work is arithmetic only.
 */
import {
  type AmiFamily,
  amiFamilyOf,
  type EC2NodeClass,
  type KubeletConfiguration,
  type NetworkInterface,
} from '../node-class.ts';
import { parseResources, type Resources } from '../resources.ts';
import { type AmiFamilyTraits, amiFamilyTraits } from './ami-family-traits.ts';
import { type EphemeralStoragePlan, ephemeralStoragePlan } from './ephemeral-storage.ts';

/** Karpenter's `VM_MEMORY_OVERHEAD_PERCENT`: memory the hypervisor and firmware keep. */
export const DEFAULT_VM_MEMORY_OVERHEAD_PERCENT = 0.075;

export interface NodeClassSettings {
  readonly amiFamily: AmiFamily;
  readonly traits: AmiFamilyTraits;
  readonly kubelet: KubeletConfiguration | undefined;
  readonly storage: EphemeralStoragePlan;
  /** kubelet.kubeReserved, parsed. */
  readonly kubeReservedOverrides: Resources;
  /** kubelet.systemReserved, parsed; nothing is reserved for the system by default. */
  readonly systemReserved: Resources;
  /** A fraction: 0.075 is 7.5 %. */
  readonly vmMemoryOverheadPercent: number;
  /** ENIs kept out of pod networking (Karpenter's `RESERVED_ENIS`). */
  readonly reservedEnis: number;
  /** The class's `networkInterfaces`, when it spells them out. */
  readonly networkInterfaces: readonly NetworkInterface[] | undefined;
}

/** `efa-only` interfaces carry no IP traffic: on the default card they take ENIs from pods. */
export function efaOnlyOnDefaultCard(settings: NodeClassSettings): number {
  return (settings.networkInterfaces ?? []).filter(
    (ni) => ni.networkCardIndex === 0 && ni.interfaceType === 'efa-only',
  ).length;
}

export interface NodeClassSettingsOptions {
  readonly nodeClass?: EC2NodeClass;
  readonly vmMemoryOverheadPercent?: number;
  readonly reservedEnis?: number;
}

export function nodeClassSettings(options: NodeClassSettingsOptions): NodeClassSettings {
  const amiFamily = amiFamilyOf(options.nodeClass);
  const kubelet = options.nodeClass?.spec.kubelet;
  return {
    amiFamily,
    traits: amiFamilyTraits(amiFamily),
    kubelet,
    storage: ephemeralStoragePlan(amiFamily, options.nodeClass),
    kubeReservedOverrides: parseResources(kubelet?.kubeReserved),
    systemReserved: parseResources(kubelet?.systemReserved),
    vmMemoryOverheadPercent: options.vmMemoryOverheadPercent ?? DEFAULT_VM_MEMORY_OVERHEAD_PERCENT,
    reservedEnis: options.reservedEnis ?? 0,
    networkInterfaces: options.nodeClass?.spec.networkInterfaces,
  };
}
