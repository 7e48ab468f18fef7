/**
 * Everything a launch template holds, and its name: `nodesmith/<cluster>/<hash>` of that
 * content. Claims whose nodes would boot identically share one template; any change (a new AMI,
 * other security groups, user data, disks) names a new one (aws: pkg/providers/launchtemplate).
 */
import { createHash } from 'node:crypto';
import type {
  AmiFamily,
  BlockDeviceMapping,
  ConnectionTracking,
  NetworkInterface,
} from '../../domain/node-class.ts';
import type {
  CpuOptions,
  LaunchableNodeClass,
  MetadataOptions,
  ResolvedNodeClass,
} from '../../ports/cloud-provider.ts';
import type { TargetedReservation } from './launch-plan.ts';
import { launchTemplateTags } from './tags.ts';

export interface LaunchTemplateConfig {
  readonly imageId: string;
  readonly instanceProfile: string;
  readonly securityGroupIds: readonly string[];
  /** Base64, as EC2 takes it. */
  readonly userData: string;
  readonly blockDeviceMappings: readonly BlockDeviceMapping[];
  readonly metadataOptions: Required<MetadataOptions>;
  readonly associatePublicIPAddress?: boolean;
  readonly detailedMonitoring: boolean;
  readonly cpuOptions?: CpuOptions;
  readonly connectionTracking?: ConnectionTracking;
  /** IPv4 prefixes for the primary interface (prefix delegation). */
  readonly ipPrefixCount?: number;
  /** The class's own interfaces, which take the place of the EFA and primary ones. */
  readonly networkInterfaces?: readonly NetworkInterface[];
  /** EFA interfaces to attach, one per network card; absent for none. */
  readonly efaCount?: number;
  /** The class's placement group, and the partition the claim was planned into. */
  readonly placement?: { readonly groupId: string; readonly partitionNumber?: number };
  readonly tags: Readonly<Record<string, string>>;
  /** The reservation a reserved launch targets; absent on any other launch. */
  readonly capacityReservation?: TargetedReservation;
}

/** Karpenter's default volume: 20Gi gp3, encrypted. */
const DEFAULT_EBS = { volumeSize: '20Gi', volumeType: 'gp3', encrypted: true } as const;

/** Disks when the EC2NodeClass maps none: the AMI family's root (and Bottlerocket's data) volume. */
export function defaultBlockDeviceMappings(family: AmiFamily): BlockDeviceMapping[] {
  switch (family) {
    case 'Bottlerocket':
      return [
        { deviceName: '/dev/xvda', ebs: { ...DEFAULT_EBS, volumeSize: '4Gi' } },
        { deviceName: '/dev/xvdb', ebs: DEFAULT_EBS },
      ];
    case 'Custom':
      return [];
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return [{ deviceName: '/dev/sda1', ebs: { ...DEFAULT_EBS, volumeSize: '50Gi' } }];
    default:
      return [{ deviceName: '/dev/xvda', ebs: DEFAULT_EBS }];
  }
}

/** The EC2NodeClass defaults: IMDSv2 only, and a hop limit that keeps pods away from node credentials. */
function metadataOptions(options: MetadataOptions | undefined): Required<MetadataOptions> {
  return {
    httpEndpoint: options?.httpEndpoint ?? 'enabled',
    httpProtocolIPv6: options?.httpProtocolIPv6 ?? 'disabled',
    httpPutResponseHopLimit: options?.httpPutResponseHopLimit ?? 1,
    httpTokens: options?.httpTokens ?? 'required',
  };
}

export interface LaunchTemplateInput {
  readonly clusterName: string;
  readonly nodeClass: LaunchableNodeClass;
  readonly resolved: ResolvedNodeClass;
  readonly imageId: string;
  /** Plain text; encoded here. */
  readonly userData: string;
  readonly capacityReservation?: TargetedReservation;
  /** EFA interfaces for the group's types (0 when the claim asks for none). */
  readonly efaCount?: number;
  /** The partition of a partition placement group the claim's offering is in (`1` …). */
  readonly partition?: string;
}

/**
 * Into the class's placement group, and for a partition group the claim's partition; with no
 * partition EC2 picks one (aws: pkg/providers/launchtemplate/types.go `buildPlacement`).
 */
function placement(input: LaunchTemplateInput): Pick<LaunchTemplateConfig, 'placement'> {
  const group = input.resolved.placementGroup;
  if (group === undefined) return {};
  const partition = input.partition === undefined ? undefined : Number(input.partition);
  return {
    placement: {
      groupId: group.id,
      ...(partition === undefined ? {} : { partitionNumber: partition }),
    },
  };
}

export function launchTemplateConfig(input: LaunchTemplateInput): LaunchTemplateConfig {
  const { spec } = input.nodeClass;
  const mappings = spec.blockDeviceMappings ?? [];
  const config: LaunchTemplateConfig = {
    imageId: input.imageId,
    instanceProfile: input.resolved.instanceProfile,
    securityGroupIds: input.resolved.securityGroups.map((group) => group.id).sort(),
    userData: Buffer.from(input.userData, 'utf8').toString('base64'),
    blockDeviceMappings:
      mappings.length > 0 ? mappings : defaultBlockDeviceMappings(input.resolved.amiFamily),
    metadataOptions: metadataOptions(spec.metadataOptions),
    detailedMonitoring: spec.detailedMonitoring ?? false,
    ...(spec.cpuOptions === undefined ? {} : { cpuOptions: spec.cpuOptions }),
    ...(spec.connectionTracking === undefined
      ? {}
      : { connectionTracking: spec.connectionTracking }),
    ...(spec.ipPrefixCount === undefined ? {} : { ipPrefixCount: spec.ipPrefixCount }),
    ...(spec.networkInterfaces === undefined || spec.networkInterfaces.length === 0
      ? {}
      : { networkInterfaces: spec.networkInterfaces }),
    ...((input.efaCount ?? 0) > 0 ? { efaCount: input.efaCount } : {}),
    ...placement(input),
    tags: launchTemplateTags(input.clusterName, input.nodeClass),
  };
  const publicIp = spec.associatePublicIPAddress;
  const reservation = input.capacityReservation;
  return {
    ...config,
    ...(publicIp === undefined ? {} : { associatePublicIPAddress: publicIp }),
    ...(reservation === undefined ? {} : { capacityReservation: reservation }),
  };
}

/** JSON with object keys sorted at every level: equal content, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const entries = Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** 16 hex digits keep the name within EC2's 128 characters for any EKS cluster name. */
export function launchTemplateName(clusterName: string, config: LaunchTemplateConfig): string {
  const hash = createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
  return `nodesmith/${clusterName}/${hash}`;
}
