/**
 * What EC2 describes of the region's instance types, their offerings, spot prices and images:
 * the bundled catalog and the simulated account's prices in DescribeInstanceTypes',
 * DescribeInstanceTypeOfferings', DescribeSpotPriceHistory's and DescribeImages' shapes, written
 * so that the EC2 adapter's mappers read back the catalog entries they came from.
 */
import type {
  ArchitectureType,
  DescribeInstanceTypeOfferingsCommandInput,
  DescribeInstanceTypesCommandInput,
  DescribeSpotPriceHistoryCommandInput,
  Image,
  InstanceTypeInfo,
  InstanceTypeOffering,
  SpotPrice,
} from '@aws-sdk/client-ec2';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import type { CatalogEntry } from '../../../functions/domain/instance-types/catalog.ts';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import { aliasImageId, simulatedImage } from '../../cloud/simulated-images.ts';
import { type FilterValues, tagFilterValues, where } from './ec2-filters.ts';
import { page } from './ec2-paging.ts';

const EC2_ARCHITECTURES = { amd64: 'x86_64', arm64: 'arm64' } as const;

function processorInfo(entry: CatalogEntry): InstanceTypeInfo['ProcessorInfo'] {
  const mhz = entry.cpuSustainedClockSpeedMhz;
  return {
    SupportedArchitectures: [EC2_ARCHITECTURES[entry.arch] as ArchitectureType],
    Manufacturer: entry.cpuManufacturer,
    SustainedClockSpeedInGhz: mhz === undefined ? undefined : mhz / 1000,
  };
}

function networkInfo(entry: CatalogEntry): InstanceTypeInfo['NetworkInfo'] {
  const mbps = entry.networkBandwidthMbps;
  return {
    DefaultNetworkCardIndex: 0,
    // Every card takes as many interfaces as the default one; bandwidth is the default card's.
    NetworkCards: Array.from({ length: entry.networkCards ?? 1 }, (_, card) => ({
      NetworkCardIndex: card,
      MaximumNetworkInterfaces: entry.maxEnis,
      BaselineBandwidthInGbps: mbps === undefined || card > 0 ? undefined : mbps / 1000,
    })),
    MaximumNetworkInterfaces:
      entry.maxEnis === undefined ? undefined : entry.maxEnis * (entry.networkCards ?? 1),
    Ipv4AddressesPerInterface: entry.ipv4PerEni,
    EncryptionInTransitSupported: entry.encryptionInTransitSupported,
    ...(entry.maxEfaInterfaces === undefined
      ? {}
      : { EfaSupported: true, EfaInfo: { MaximumEfaInterfaces: entry.maxEfaInterfaces } }),
  };
}

function deviceInfo(entry: CatalogEntry): Partial<InstanceTypeInfo> {
  const gpu =
    entry.gpuName === undefined
      ? {}
      : {
          GpuInfo: {
            Gpus: [
              {
                Name: entry.gpuName,
                Manufacturer: entry.gpuManufacturer,
                Count: entry.gpuCount,
                MemoryInfo: { SizeInMiB: entry.gpuMemoryMiB },
              },
            ],
          },
        };
  const count = entry.acceleratorCount;
  const neuron =
    entry.acceleratorManufacturer !== 'aws' || count === undefined
      ? {}
      : {
          NeuronInfo: {
            NeuronDevices: [
              {
                Name: entry.acceleratorName,
                Count: count,
                CoreInfo: { Count: (entry.neuronCoreCount ?? count) / count },
              },
            ],
          },
        };
  return { ...gpu, ...neuron };
}

export function instanceTypeInfo(entry: CatalogEntry): InstanceTypeInfo {
  return {
    InstanceType: entry.name as InstanceTypeInfo['InstanceType'],
    CurrentGeneration: true,
    SupportedVirtualizationTypes: ['hvm'],
    Hypervisor: entry.hypervisor as InstanceTypeInfo['Hypervisor'],
    BareMetal: entry.size.startsWith('metal'),
    VCpuInfo: { DefaultVCpus: entry.vcpu },
    MemoryInfo: { SizeInMiB: entry.memoryMiB },
    ProcessorInfo: processorInfo(entry),
    NetworkInfo: networkInfo(entry),
    ...(entry.ebsBandwidthMbps === undefined
      ? {}
      : { EbsInfo: { EbsOptimizedInfo: { MaximumBandwidthInMbps: entry.ebsBandwidthMbps } } }),
    ...(entry.localNvmeGB === undefined
      ? {}
      : { InstanceStorageInfo: { TotalSizeInGB: entry.localNvmeGB, NvmeSupport: 'required' } }),
    ...deviceInfo(entry),
  };
}

export function instanceTypeFilters(info: InstanceTypeInfo): FilterValues {
  return (name) => {
    switch (name) {
      case 'instance-type':
        return [info.InstanceType ?? ''];
      case 'supported-virtualization-type':
        return info.SupportedVirtualizationTypes ?? [];
      case 'processor-info.supported-architecture':
        return info.ProcessorInfo?.SupportedArchitectures ?? [];
      case 'current-generation':
        return [String(info.CurrentGeneration)];
      default:
        return undefined;
    }
  };
}

export const INSTANCE_TYPE_INFOS: readonly InstanceTypeInfo[] =
  BUNDLED_CATALOG.map(instanceTypeInfo);

/** Every catalog type in every zone of the account. */
export function instanceTypeOfferings(ec2: SimulatedEc2): InstanceTypeOffering[] {
  return BUNDLED_CATALOG.flatMap((entry) =>
    ec2.options.zones.map((zone) => ({
      InstanceType: entry.name as InstanceTypeOffering['InstanceType'],
      LocationType: 'availability-zone' as const,
      Location: zone,
    })),
  );
}

export function offeringFilters(offering: InstanceTypeOffering): FilterValues {
  return (name) =>
    name === 'location'
      ? [offering.Location ?? '']
      : name === 'instance-type'
        ? [offering.InstanceType ?? '']
        : undefined;
}

/** Linux spot prices of the account's market, the same at every moment asked. */
export function spotPriceHistory(ec2: SimulatedEc2, at: Date): SpotPrice[] {
  return [...ec2.prices.spot].flatMap(([type, zones]) =>
    [...zones].map(([zone, price]) => ({
      AvailabilityZone: zone,
      InstanceType: type as SpotPrice['InstanceType'],
      ProductDescription: 'Linux/UNIX' as const,
      SpotPrice: price.toFixed(6),
      Timestamp: at,
    })),
  );
}

/** The account owner and the owner EC2 names Amazon's public images by. */
export const ACCOUNT_ID = '111122223333';

/**
 * The image behind an id: the simulated cloud's own images (simulator/cloud/simulated-images.ts)
 * as their ids name them, the same the simulated SSM's alias parameters hold; any other `ami-` id
 * a selector names exists too, as an amd64 image, so that a class pinned to an id resolves.
 */
export function imageOf(imageId: string): Image {
  const simulated = simulatedImage(imageId);
  return {
    ImageId: imageId,
    Name: simulated?.name ?? `simulated-${imageId}`,
    Architecture: simulated?.architecture === 'arm64' ? 'arm64' : 'x86_64',
    CreationDate: '2026-01-01T00:00:00.000Z',
    OwnerId: 'amazon',
    ImageOwnerAlias: 'amazon',
    State: 'available',
    Public: true,
    RootDeviceName: '/dev/xvda',
    VirtualizationType: 'hvm',
  };
}

/** The current AL2023 images, listed without being named. */
export const KNOWN_IMAGES: readonly Image[] = [
  imageOf(aliasImageId('al2023', 'latest')),
  imageOf(aliasImageId('al2023', 'latest', 'arm64')),
];

export function imageFilters(image: Image): FilterValues {
  return (name) => {
    switch (name) {
      case 'image-id':
        return [image.ImageId ?? ''];
      case 'name':
        return [image.Name ?? ''];
      case 'architecture':
        return [image.Architecture ?? ''];
      case 'owner-alias':
        return [image.ImageOwnerAlias ?? ''];
      default:
        return tagFilterValues({}, name);
    }
  };
}

export function describeInstanceTypes(input: DescribeInstanceTypesCommandInput) {
  const named = new Set<string>(input.InstanceTypes ?? []);
  const infos = INSTANCE_TYPE_INFOS.filter(
    (info) => named.size === 0 || named.has(info.InstanceType ?? ''),
  );
  const { items, NextToken } = page(where(infos, input.Filters, instanceTypeFilters), input, 100);
  return { InstanceTypes: items, NextToken };
}

export function describeInstanceTypeOfferings(
  ec2: SimulatedEc2,
  input: DescribeInstanceTypeOfferingsCommandInput,
) {
  const offerings = where(instanceTypeOfferings(ec2), input.Filters, offeringFilters);
  const { items, NextToken } = page(offerings, input, 1000);
  return { InstanceTypeOfferings: items, NextToken };
}

/** Only Linux is priced on the simulated spot market. */
export function describeSpotPriceHistory(
  ec2: SimulatedEc2,
  input: DescribeSpotPriceHistoryCommandInput,
) {
  const products = input.ProductDescriptions ?? [];
  const linux = products.length === 0 || products.some((p) => p.startsWith('Linux/UNIX'));
  const history = linux ? spotPriceHistory(ec2, ec2.options.clock.now()) : [];
  const { items, NextToken } = page(history, input, 1000);
  return { SpotPriceHistory: items, NextToken };
}
