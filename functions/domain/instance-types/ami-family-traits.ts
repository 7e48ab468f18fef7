/**
 * How each AMI family changes Karpenter's capacity estimate: its feature flags and the block
 * device that holds ephemeral storage (aws: pkg/providers/amifamily/*.go).
 */
import type { AmiFamily } from '../node-class.ts';
import { GiB } from '../resources.ts';

export interface AmiFamilyTraits {
  /** Default max pods come from ENI limits; otherwise (Windows) kubelet's 110. */
  readonly eniLimitedPodDensity: boolean;
  /**
   * kube-reserved memory is sized from the ENI-limited pod count (no reserved ENIs) whatever
   * kubelet.maxPods says, as Karpenter does for these families; the others use max pods.
   */
  readonly eniLimitedMemoryOverhead: boolean;
  /** Bottlerocket's settings have no podsPerCore, so it is ignored there. */
  readonly podsPerCore: boolean;
  /** The device whose volume is the node's ephemeral storage. */
  readonly ephemeralDevice?: string;
  /** Its size when the EC2NodeClass does not map that device. */
  readonly ephemeralVolumeBytes: number;
  /** `node.kubernetes.io/windows-build` for Windows families. */
  readonly windowsBuild?: string;
}

/** Karpenter's default EBS volume (gp3, 20Gi): also the answer when nothing else applies. */
export const DEFAULT_VOLUME_BYTES = 20 * GiB;

const LINUX: AmiFamilyTraits = {
  eniLimitedPodDensity: true,
  eniLimitedMemoryOverhead: true,
  podsPerCore: true,
  ephemeralDevice: '/dev/xvda',
  ephemeralVolumeBytes: DEFAULT_VOLUME_BYTES,
};

function windows(build: string): AmiFamilyTraits {
  return {
    eniLimitedPodDensity: false,
    eniLimitedMemoryOverhead: false,
    podsPerCore: true,
    ephemeralDevice: '/dev/sda1',
    ephemeralVolumeBytes: 50 * GiB,
    windowsBuild: build,
  };
}

const TRAITS: Readonly<Record<AmiFamily, AmiFamilyTraits>> = {
  AL2: LINUX,
  AL2023: LINUX,
  // Bottlerocket keeps the OS on a small /dev/xvda and containers on the /dev/xvdb data volume.
  Bottlerocket: {
    eniLimitedPodDensity: true,
    eniLimitedMemoryOverhead: false,
    podsPerCore: false,
    ephemeralDevice: '/dev/xvdb',
    ephemeralVolumeBytes: DEFAULT_VOLUME_BYTES,
  },
  Windows2019: windows('10.0.17763'),
  Windows2022: windows('10.0.20348'),
  Windows2025: windows('10.0.26100'),
  // A custom AMI's root device is unknown: no default mapping, so the default volume size.
  Custom: {
    eniLimitedPodDensity: true,
    eniLimitedMemoryOverhead: true,
    podsPerCore: true,
    ephemeralVolumeBytes: DEFAULT_VOLUME_BYTES,
  },
};

export function amiFamilyTraits(family: AmiFamily): AmiFamilyTraits {
  return TRAITS[family];
}
