/**
 * One EC2 instance type as the bundled catalog describes it: the facts `DescribeInstanceTypes`
 * and the VPC limits give Karpenter, trimmed to what capacity, labels and offerings read.
 *
 * Only launchable types are in the catalog. The source also lists types without vCPU, memory or
 * architecture (mac*.metal, c8g-flex.*, m8g-flex.*, c7i.32xlarge); they cannot be sized or
 * matched to an AMI, so they were left out when the data was vendored (see data/README.md).
 */

import type { PlacementStrategy } from '../placement-group.ts';

export type Architecture = 'amd64' | 'arm64';

export interface CatalogEntry {
  /** `m5.large`. */
  readonly name: string;
  /** The part of the name before the `.` (`m5`, `c7g-flex`). */
  readonly family: string;
  /** The part of the name after the `.` (`large`, `metal-24xl`). */
  readonly size: string;
  /** From Karpenter's `(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`; absent where it does not match. */
  readonly category?: string;
  readonly generation?: number;
  readonly arch: Architecture;
  readonly vcpu: number;
  /** MemoryInfo.SizeInMiB: what EC2 sells, before any OS or VM overhead. */
  readonly memoryMiB: number;
  readonly cpuManufacturer?: string;
  readonly cpuSustainedClockSpeedMhz?: number;
  /** `nitro` or `xen`; absent for bare metal, where EC2 reports an empty hypervisor. */
  readonly hypervisor?: string;
  readonly encryptionInTransitSupported?: boolean;
  readonly networkBandwidthMbps?: number;
  readonly ebsBandwidthMbps?: number;
  /** Total NVMe instance storage in GB (10^9 bytes), as EC2 reports it. */
  readonly localNvmeGB?: number;
  /** ENIs of the default network card: the VPC CNI uses no other card. */
  readonly maxEnis?: number;
  readonly ipv4PerEni?: number;
  /**
   * Network cards, present only when there are several; each card takes `maxEnis` interfaces, as
   * on every type EC2 publishes limits for.
   */
  readonly networkCards?: number;
  /** ENI-limited max pods, present only for the few types whose ENI limits are not published. */
  readonly maxPods?: number;
  /** Branch ENIs for security groups for pods; present only when the type supports trunking. */
  readonly podEnis?: number;
  readonly maxEfaInterfaces?: number;
  /**
   * The placement group strategies EC2 launches the type into (`PlacementGroupInfo.
   * SupportedStrategies`: no `cluster` for burstable types, for instance). Absent in the bundled
   * catalog, whose source does not list them; DescribeInstanceTypes does.
   */
  readonly placementStrategies?: readonly PlacementStrategy[];
  /** GPU facts, present when EC2 reports exactly one kind of GPU. `gpuMemoryMiB` is per GPU. */
  readonly gpuName?: string;
  readonly gpuManufacturer?: string;
  readonly gpuCount?: number;
  readonly gpuMemoryMiB?: number;
  /** Inferentia/Trainium (manufacturer `aws`, Neuron devices) or other inference accelerators. */
  readonly acceleratorName?: string;
  readonly acceleratorManufacturer?: string;
  readonly acceleratorCount?: number;
  readonly neuronCoreCount?: number;
}
