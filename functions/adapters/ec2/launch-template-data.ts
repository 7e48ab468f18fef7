/** A launch template's content in EC2's request shape (aws: pkg/providers/launchtemplate). */
import type {
  ConnectionTrackingSpecificationRequest,
  LaunchTemplateBlockDeviceMappingRequest,
  LaunchTemplateInstanceNetworkInterfaceSpecificationRequest,
  RequestLaunchTemplateData,
  VolumeType,
} from '@aws-sdk/client-ec2';
import type {
  BlockDeviceMapping,
  ConnectionTracking,
  NetworkInterface,
} from '../../domain/node-class.ts';
import { parseUnits } from '../../domain/quantity.ts';
import { GiB } from '../../domain/resources.ts';
import type { LaunchTemplateConfig } from './launch-template-config.ts';
import { toTags } from './mappers.ts';

/** EC2 sizes volumes in whole GiB; a size between two is rounded up. */
function volumeSizeGiB(size: string | undefined): number | undefined {
  return size === undefined ? undefined : Math.ceil(parseUnits(size) / GiB);
}

function toBlockDeviceMapping(
  mapping: BlockDeviceMapping,
): LaunchTemplateBlockDeviceMappingRequest {
  const ebs = mapping.ebs;
  return {
    DeviceName: mapping.deviceName,
    Ebs:
      ebs === undefined
        ? undefined
        : {
            DeleteOnTermination: ebs.deleteOnTermination,
            Encrypted: ebs.encrypted,
            Iops: ebs.iops,
            KmsKeyId: ebs.kmsKeyID,
            SnapshotId: ebs.snapshotID,
            Throughput: ebs.throughput,
            VolumeInitializationRate: ebs.volumeInitializationRate,
            VolumeSize: volumeSizeGiB(ebs.volumeSize),
            VolumeType: ebs.volumeType as VolumeType | undefined,
          },
  };
}

/** EC2's shape of the class's timeouts, or nothing when it sets none (keeping EC2's defaults). */
function connectionTrackingSpecification(
  timeouts: ConnectionTracking | undefined,
): ConnectionTrackingSpecificationRequest | undefined {
  if (timeouts === undefined) return undefined;
  return {
    TcpEstablishedTimeout: timeouts.tcpEstablishedTimeout,
    UdpStreamTimeout: timeouts.udpStreamTimeout,
    UdpTimeout: timeouts.udpTimeout,
  };
}

/** Only the settings of the primary interface need it spelled out; the rest are EC2's defaults. */
function needsPrimaryInterface(config: LaunchTemplateConfig): boolean {
  return (
    config.associatePublicIPAddress !== undefined ||
    config.connectionTracking !== undefined ||
    config.ipPrefixCount !== undefined
  );
}

/**
 * The class's interfaces as it lists them, each with the security groups. An `efa-only` one
 * carries no IP traffic, so it gets no prefixes, public IP choice or connection tracking, which
 * EC2 would refuse (aws: launchtemplate.go `generateNetworkInterfaces`).
 */
function listedInterfaces(
  config: LaunchTemplateConfig,
  listed: readonly NetworkInterface[],
): LaunchTemplateInstanceNetworkInterfaceSpecificationRequest[] {
  const connectionTracking = connectionTrackingSpecification(config.connectionTracking);
  return listed.map((ni) => {
    const ip = ni.interfaceType !== 'efa-only';
    return {
      NetworkCardIndex: ni.networkCardIndex,
      DeviceIndex: ni.deviceIndex,
      InterfaceType: ni.interfaceType,
      Ipv4PrefixCount: ip ? config.ipPrefixCount : undefined,
      Groups: [...config.securityGroupIds],
      AssociatePublicIpAddress: ip ? config.associatePublicIPAddress : undefined,
      ConnectionTrackingSpecification: ip ? connectionTracking : undefined,
    };
  });
}

/**
 * One EFA interface per network card, the first card's at device 0 so it stays the primary
 * interface, the others at device 1 (aws: launchtemplate.go `generateNetworkInterfaces`).
 */
function efaInterfaces(
  config: LaunchTemplateConfig,
  efaCount: number,
): LaunchTemplateInstanceNetworkInterfaceSpecificationRequest[] {
  const connectionTracking = connectionTrackingSpecification(config.connectionTracking);
  return Array.from({ length: efaCount }, (_, card) => ({
    NetworkCardIndex: card,
    DeviceIndex: card === 0 ? 0 : 1,
    InterfaceType: 'efa',
    Ipv4PrefixCount: config.ipPrefixCount,
    Groups: [...config.securityGroupIds],
    AssociatePublicIpAddress: config.associatePublicIPAddress,
    ConnectionTrackingSpecification: connectionTracking,
  }));
}

/**
 * Security groups go on the network interface when it is spelled out (to set the public IP
 * choice, prefixes or connection tracking, as Karpenter's `generateNetworkInterfaces` does); EC2
 * refuses them in both places. Clusters are IPv4, so prefixes are IPv4 prefixes.
 */
function networking(config: LaunchTemplateConfig): Partial<RequestLaunchTemplateData> {
  if (config.networkInterfaces !== undefined) {
    return { NetworkInterfaces: listedInterfaces(config, config.networkInterfaces) };
  }
  const efaCount = config.efaCount ?? 0;
  if (efaCount > 0) return { NetworkInterfaces: efaInterfaces(config, efaCount) };
  const groups = [...config.securityGroupIds];
  if (!needsPrimaryInterface(config)) return { SecurityGroupIds: groups };
  return {
    NetworkInterfaces: [
      {
        DeviceIndex: 0,
        AssociatePublicIpAddress: config.associatePublicIPAddress,
        Ipv4PrefixCount: config.ipPrefixCount,
        Groups: groups,
        ConnectionTrackingSpecification: connectionTrackingSpecification(config.connectionTracking),
      },
    ],
  };
}

/** CpuOptions only when the EC2NodeClass sets them, as Karpenter sends them (aws: pkg/providers/launchtemplate/launchtemplate.go). */
function cpuOptions(config: LaunchTemplateConfig): Partial<RequestLaunchTemplateData> {
  const nested = config.cpuOptions?.nestedVirtualization;
  return nested === undefined ? {} : { CpuOptions: { NestedVirtualization: nested } };
}

/**
 * A reserved launch goes only into its reservation, and a capacity block or an interruptible
 * ODCR names its market; a spot or on-demand launch never goes into a reservation, so it cannot
 * take room in an open ODCR that no reservation count covers (aws:
 * pkg/providers/launchtemplate/types.go, targeted launch mode, on by default since v1.6).
 */
function capacityReservation(config: LaunchTemplateConfig): Partial<RequestLaunchTemplateData> {
  const reservation = config.capacityReservation;
  if (reservation === undefined) {
    return { CapacityReservationSpecification: { CapacityReservationPreference: 'none' } };
  }
  const market =
    reservation.type === 'capacity-block'
      ? 'capacity-block'
      : reservation.interruptible
        ? 'interruptible-capacity-reservation'
        : undefined;
  return {
    CapacityReservationSpecification: {
      CapacityReservationPreference: 'capacity-reservations-only',
      CapacityReservationTarget: { CapacityReservationId: reservation.id },
    },
    ...(market === undefined ? {} : { InstanceMarketOptions: { MarketType: market } }),
  };
}

export function toLaunchTemplateData(config: LaunchTemplateConfig): RequestLaunchTemplateData {
  const metadata = config.metadataOptions;
  return {
    ImageId: config.imageId,
    IamInstanceProfile: { Name: config.instanceProfile },
    UserData: config.userData,
    BlockDeviceMappings:
      config.blockDeviceMappings.length > 0
        ? config.blockDeviceMappings.map(toBlockDeviceMapping)
        : undefined,
    MetadataOptions: {
      HttpEndpoint: metadata.httpEndpoint,
      HttpProtocolIpv6: metadata.httpProtocolIPv6,
      HttpPutResponseHopLimit: metadata.httpPutResponseHopLimit,
      HttpTokens: metadata.httpTokens,
    },
    Monitoring: { Enabled: config.detailedMonitoring },
    ...cpuOptions(config),
    ...capacityReservation(config),
    ...(config.placement === undefined
      ? {}
      : {
          Placement: {
            GroupId: config.placement.groupId,
            PartitionNumber: config.placement.partitionNumber,
          },
        }),
    ...networking(config),
    TagSpecifications: [{ ResourceType: 'network-interface', Tags: toTags(config.tags) }],
  };
}
