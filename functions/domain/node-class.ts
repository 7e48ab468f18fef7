/**
 * The parts of a `karpenter.k8s.aws/v1` EC2NodeClass that shape instance types and placement:
 * kubelet settings (allocatable), block devices (ephemeral storage), AMI family (OS, user data)
 * and the resolved subnets (zones). The full document is described by the manifest schema.
 */
import type {
  CapacityReservation,
  CapacityReservationSelectorTerm,
} from './capacity-reservation.ts';
import type { Condition } from './condition.ts';
import type { PlacementGroup, PlacementGroupSelector } from './placement-group.ts';

export type AmiFamily =
  | 'AL2'
  | 'AL2023'
  | 'Bottlerocket'
  | 'Windows2019'
  | 'Windows2022'
  | 'Windows2025'
  | 'Custom';

export interface KubeletConfiguration {
  readonly clusterDNS?: readonly string[];
  readonly maxPods?: number;
  readonly podsPerCore?: number;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly kubeReserved?: Readonly<Record<string, string>>;
  readonly evictionHard?: Readonly<Record<string, string>>;
  readonly evictionSoft?: Readonly<Record<string, string>>;
  readonly evictionSoftGracePeriod?: Readonly<Record<string, string>>;
  readonly evictionMaxPodGracePeriod?: number;
  readonly imageGCHighThresholdPercent?: number;
  readonly imageGCLowThresholdPercent?: number;
  readonly cpuCFSQuota?: boolean;
}

export interface BlockDeviceMapping {
  readonly deviceName?: string;
  readonly rootVolume?: boolean;
  readonly ebs?: {
    readonly volumeSize?: string;
    readonly volumeType?: string;
    readonly iops?: number;
    readonly throughput?: number;
    readonly encrypted?: boolean;
    readonly kmsKeyID?: string;
    readonly snapshotID?: string;
    /** MiB/s at which a volume made from a snapshot is filled at launch. */
    readonly volumeInitializationRate?: number;
    readonly deleteOnTermination?: boolean;
  };
}

export interface SelectorTerm {
  readonly tags?: Readonly<Record<string, string>>;
  readonly id?: string;
  readonly name?: string;
}

export interface AmiSelectorTerm extends SelectorTerm {
  readonly alias?: string;
  readonly owner?: string;
  readonly ssmParameter?: string;
}

export interface ResolvedSubnet {
  readonly id: string;
  readonly zone: string;
  readonly zoneID?: string;
}

export interface ResolvedSecurityGroup {
  readonly id: string;
  readonly name?: string;
}

/**
 * Idle connection tracking timeouts in seconds for the interfaces a launch template spells out
 * (aws: pkg/apis/v1/ec2nodeclass.go `ConnectionTracking`); absent ones keep EC2's defaults.
 */
export interface ConnectionTracking {
  readonly tcpEstablishedTimeout?: number;
  readonly udpStreamTimeout?: number;
  readonly udpTimeout?: number;
}

/**
 * An interface the launch template attaches (aws: pkg/apis/v1/ec2nodeclass.go
 * `NetworkInterface`): `interface` carries IP traffic, `efa-only` only EFA traffic.
 */
export interface NetworkInterface {
  readonly networkCardIndex: number;
  readonly deviceIndex: number;
  readonly interfaceType: 'interface' | 'efa-only';
}

export interface EC2NodeClass {
  readonly metadata: {
    readonly name: string;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly spec: {
    readonly amiFamily?: AmiFamily;
    readonly amiSelectorTerms?: readonly AmiSelectorTerm[];
    readonly subnetSelectorTerms?: readonly SelectorTerm[];
    readonly securityGroupSelectorTerms?: readonly SelectorTerm[];
    readonly capacityReservationSelectorTerms?: readonly CapacityReservationSelectorTerm[];
    readonly role?: string;
    readonly instanceProfile?: string;
    readonly userData?: string;
    readonly tags?: Readonly<Record<string, string>>;
    readonly kubelet?: KubeletConfiguration;
    readonly blockDeviceMappings?: readonly BlockDeviceMapping[];
    readonly instanceStorePolicy?: 'RAID0';
    /** Narrows the instance types to Nitro ones, which alone accept the timeouts. */
    readonly connectionTracking?: ConnectionTracking;
    /**
     * IPv4 prefixes EC2 assigns the primary interface at launch. Pod density is unchanged: like
     * Karpenter, max pods stays the ENI limit unless `kubelet.maxPods` says otherwise.
     */
    readonly ipPrefixCount?: number;
    /**
     * The interfaces every instance gets, in place of the primary one alone: types that cannot
     * attach them are left out, and the `efa-only` ones decide EFA capacity and pod density.
     */
    readonly networkInterfaces?: readonly NetworkInterface[];
    /** The placement group, by name or id, every instance of the class is launched into. */
    readonly placementGroupSelector?: PlacementGroupSelector;
  };
  readonly status?: {
    /** The subnets the selector terms resolve to now: a node launched into another has drifted. */
    readonly subnets?: readonly ResolvedSubnet[];
    /** The security groups they resolve to now: a node with another set has drifted. */
    readonly securityGroups?: readonly ResolvedSecurityGroup[];
    /** The AMIs the selector terms resolve to now: a node on another image has drifted. */
    readonly amis?: readonly { readonly id: string; readonly name?: string }[];
    /** The reservations the selector terms resolve to now: reserved offerings are made of them. */
    readonly capacityReservations?: readonly CapacityReservation[];
    /**
     * The placement group the selector resolves to now, when a pass resolved it: a node launched
     * into another (or into one when the class selects none) has drifted. Karpenter keeps it in
     * memory rather than in the status; absent where it is not known.
     */
    readonly placementGroup?: PlacementGroup;
    readonly conditions?: readonly Condition[];
  };
}

/** The AMI family each alias family names (`al2023@latest` → AL2023). */
export const ALIAS_FAMILIES: Readonly<Record<string, AmiFamily>> = {
  al2: 'AL2',
  al2023: 'AL2023',
  bottlerocket: 'Bottlerocket',
  windows2019: 'Windows2019',
  windows2022: 'Windows2022',
  windows2025: 'Windows2025',
};

/** The AMI family an alias names, or undefined when it names none. */
export function aliasFamily(alias: string): AmiFamily | undefined {
  const family = alias.split('@')[0] ?? '';
  return Object.hasOwn(ALIAS_FAMILIES, family) ? ALIAS_FAMILIES[family] : undefined;
}

/** The AMI family: explicit, else implied by an alias, else AL2023. */
export function amiFamilyOf(nodeClass: EC2NodeClass | undefined): AmiFamily {
  const explicit = nodeClass?.spec.amiFamily;
  if (explicit !== undefined) return explicit;
  const alias = nodeClass?.spec.amiSelectorTerms?.find((term) => term.alias !== undefined)?.alias;
  return (alias === undefined ? undefined : aliasFamily(alias)) ?? 'AL2023';
}

export function isWindows(family: AmiFamily): boolean {
  return family.startsWith('Windows');
}
