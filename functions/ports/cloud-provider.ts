/**
 * What Nodesmith needs from the cloud (docs/design.md §1.1): resolve an EC2NodeClass, launch and
 * terminate the instance behind a NodeClaim, list what it owns, and describe the instance types and
 * prices it can choose from. Karpenter's `CloudProvider` split by consumer: the controller uses all
 * of it, `nodesmith plan` and the api only the instance types and prices.
 *
 * Every method may reject with ThrottledError when the cloud refuses for rate after the SDK's
 * own retries; the other port errors are listed per method. Anything else (network failures,
 * permissions) rejects with the original error. Times come from the adapter's injected clock.
 */

import type { CapacityReservation } from '../domain/capacity-reservation.ts';
import type { InstanceNetwork } from '../domain/instance-network.ts';
import type { InstanceType } from '../domain/instance-type.ts';
import type { SpotPrices } from '../domain/instance-types/offerings.ts';
import type { Currency, PriceTable } from '../domain/instance-types/prices.ts';
import type { WindowsPrices } from '../domain/instance-types/windows-prices.ts';
import type { InstanceStatus } from '../domain/interruption/instance-status.ts';
import type { Labels } from '../domain/label-selector.ts';
import type { CapacityType } from '../domain/labels.ts';
import type {
  AmiFamily,
  EC2NodeClass,
  ResolvedSecurityGroup,
  ResolvedSubnet,
} from '../domain/node-class.ts';
import type { PlacementGroup } from '../domain/placement-group.ts';
import type { NodeSelectorRequirement } from '../domain/requirements/requirement.ts';
import type { NodeClaimRecord } from '../domain/state/node-claim-record.ts';
import type { OfferingKey } from '../domain/state/unavailable-offering.ts';
import type { Taint } from '../domain/taints.ts';

/** Instance metadata (IMDS) settings; absent ones take the EC2NodeClass defaults (IMDSv2, hop limit 1). */
export interface MetadataOptions {
  readonly httpEndpoint?: 'enabled' | 'disabled';
  readonly httpProtocolIPv6?: 'enabled' | 'disabled';
  readonly httpPutResponseHopLimit?: number;
  readonly httpTokens?: 'required' | 'optional';
}

/** The instance's CPU options; absent ones take the instance type's defaults. */
export interface CpuOptions {
  readonly nestedVirtualization?: 'enabled' | 'disabled';
}

/**
 * An EC2NodeClass as launches read it: the domain's view plus the settings that only pass
 * through to the launch template and the fleet. A parsed `EC2NodeClassDocument` is one.
 */
export interface LaunchableNodeClass extends EC2NodeClass {
  readonly spec: EC2NodeClass['spec'] & {
    readonly metadataOptions?: MetadataOptions;
    readonly associatePublicIPAddress?: boolean;
    readonly detailedMonitoring?: boolean;
    readonly cpuOptions?: CpuOptions;
    /** The EC2 Fleet context, for capacity reserved through it. */
    readonly context?: string;
  };
}

export interface ResolvedNodeClassSubnet extends ResolvedSubnet {
  /** Free IPv4 addresses when resolved: a launch picks the emptiest subnet of each zone. */
  readonly availableIpAddressCount: number;
}

export type { ResolvedSecurityGroup } from '../domain/node-class.ts';

export interface ResolvedAmi {
  readonly id: string;
  readonly name?: string;
  /** ISO-8601, as EC2 reports it; the newest image wins among those with equal requirements. */
  readonly creationDate?: string;
  /** What an instance type must satisfy to boot it: its architecture, GPU or accelerator variant. */
  readonly requirements: readonly NodeSelectorRequirement[];
}

/** What Karpenter writes into an EC2NodeClass's status, resolved from its selector terms. */
export interface ResolvedNodeClass {
  readonly name: string;
  readonly amiFamily: AmiFamily;
  /** Sorted by id. */
  readonly subnets: readonly ResolvedNodeClassSubnet[];
  /** Sorted by id. */
  readonly securityGroups: readonly ResolvedSecurityGroup[];
  /** Newest first. */
  readonly amis: readonly ResolvedAmi[];
  readonly instanceProfile: string;
  /** Active and not yet ended, sorted by id; none without capacityReservationSelectorTerms. */
  readonly capacityReservations: readonly CapacityReservation[];
  /** The placement group the class selects, when it selects one. */
  readonly placementGroup?: PlacementGroup;
}

export interface NodeClassResolver {
  /**
   * Resolves the class's subnets, security groups, AMIs, instance profile, capacity reservations
   * and placement group. Read-only and safe to repeat; results are cached for Karpenter's refresh
   * intervals (subnets, security groups, AMIs, capacity reservations and placement groups 1
   * minute, AMI alias parameters 24 hours, instance profiles 15 minutes). Rejects with
   * InvalidConfigError when a selector matches nothing or names an unsupported AMI alias.
   *
   * @example
   * const resolved = await cloud.resolveNodeClass(nodeClass);
   * const zones = resolved.subnets.map((subnet) => subnet.zone);
   */
  resolveNodeClass(nodeClass: LaunchableNodeClass): Promise<ResolvedNodeClass>;
}

/** What a launch needs besides the claim: the node it should become. */
export interface LaunchContext {
  readonly nodeClass: LaunchableNodeClass;
  /** The NodeClaim's labels; the kubelet registers with those it may set. */
  readonly labels: Labels;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /**
   * The instance types the claim's options name, with the offerings the planner saw: only
   * available offerings of the claim's capacity type are requested.
   */
  readonly instanceTypes: readonly InstanceType[];
}

export interface LaunchedInstance {
  readonly instanceId: string;
  /** `aws:///<zone>/<instance id>`, what the kubelet reports as the Node's providerID. */
  readonly providerID: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** ISO-8601. */
  readonly launchTime: string;
  readonly imageId?: string;
  /** The subnet and security groups it was launched into: drift compares them with the class's. */
  readonly network?: InstanceNetwork;
}

export interface LaunchResult extends LaunchedInstance {
  /**
   * Offerings the fleet found without capacity before it filled this one. Karpenter marks them
   * unavailable even when the launch succeeded; absent when there were none.
   */
  readonly unavailableOfferings?: readonly OfferingKey[];
}

export interface ManagedInstance extends LaunchedInstance {
  /** `pending`, `running`, `stopping`, `stopped` or `shutting-down`. */
  readonly state: string;
  /** The NodeClaim it was launched for (its tag); absent on instances tagged by hand. */
  readonly nodeClaim?: string;
  readonly nodePool?: string;
  readonly nodeClass?: string;
  /**
   * It carries Nodesmith's ownership tag for this cluster: Nodesmith launched or adopted it.
   * Only such instances are ever orphans, and only they may be terminated.
   */
  readonly owned: boolean;
}

export interface InstanceProvider {
  /**
   * Launches one instance for the claim (CreateFleet, instant). Idempotent per `claim.name`:
   * the name is the request's client token, so a retry after a crash returns the instance the
   * first call launched instead of a second one. Rejects with InsufficientCapacityError listing
   * every offering EC2 could not fill when none could be, and with InvalidConfigError when the
   * class or claim leaves nothing to request (no subnet in the claim's zones, no AMI for its
   * instance types, an AMI family Nodesmith cannot bootstrap).
   *
   * @example
   * const instance = await cloud.launch(claim, { nodeClass, labels, taints, startupTaints, instanceTypes });
   * await state.nodeClaims.update({ ...claim, phase: 'Launched', instanceId: instance.instanceId, providerID: instance.providerID });
   */
  launch(claim: NodeClaimRecord, context: LaunchContext): Promise<LaunchResult>;
  /** Terminates the instance. Idempotent: an instance that is already gone counts as done. */
  terminate(instanceId: string): Promise<void>;
  /**
   * Instances carrying Nodesmith's ownership tag for the cluster that are not yet terminated,
   * sorted by instance id: the input of orphan garbage collection. Karpenter's instances and
   * those of managed node groups carry the cluster tag but not this one, and are never listed.
   */
  listManaged(): Promise<readonly ManagedInstance[]>;
  /**
   * The instances among `instanceIds` that carry the cluster tag and are not yet terminated,
   * whoever launched them, sorted by instance id; ids EC2 does not know are left out. Read-only.
   */
  describe(instanceIds: readonly string[]): Promise<readonly ManagedInstance[]>;
  /**
   * Adds Nodesmith's ownership tag, and only it, to instances that carry the cluster tag: the
   * instances of claims written before the tag existed, and Karpenter instances being adopted.
   * Idempotent. Rejects with the cloud's own error when IAM refuses (the deployment grants it
   * only when adoption is on).
   */
  claimOwnership(instanceIds: readonly string[]): Promise<void>;
  /**
   * Instances of the region whose instance or system status check is impaired or that have a
   * scheduled event (DescribeInstanceStatus), with each detail; whose instances they are is the
   * caller's to find out. Read-only.
   */
  instanceStatuses(): Promise<readonly InstanceStatus[]>;
}

export interface InstanceTypeOptions {
  /** Offerings recently out of capacity: their offerings come back unavailable. */
  readonly unavailable?: readonly OfferingKey[];
}

export interface InstanceTypeProvider {
  /**
   * Every instance type the class could launch in its subnets' zones, sorted by name, with
   * Karpenter's allocatable estimate and priced offerings. Types EC2 does not offer in those
   * zones come back without offerings. Falls back to the bundled catalog while EC2 cannot be
   * described. Rejects with InvalidConfigError when the class's subnets cannot be resolved, and
   * with NodeClassNotReadyError when its placement group cannot be found.
   */
  instanceTypes(
    nodeClass: LaunchableNodeClass,
    options?: InstanceTypeOptions,
  ): Promise<readonly InstanceType[]>;
}

export interface OfferingPrices {
  /** On-demand price per hour by instance type. */
  readonly onDemand: PriceTable;
  /** Spot price per hour by instance type and zone; empty until live prices are known. */
  readonly spot: SpotPrices;
  readonly currency: Currency;
  /** `live` once the pricing API answered (merged over the bundled table), else `bundled`. */
  readonly onDemandSource: 'live' | 'bundled';
  readonly spotSource: 'live' | 'none';
  /** The region whose bundled table is the base: the region itself or us-east-1 as an estimate. */
  readonly priceSource: string;
  /**
   * Live Windows on-demand and spot prices, when asked for and known; instance types estimate
   * the rest as the Linux price plus the Windows Server license.
   */
  readonly windows?: WindowsPrices;
}

export interface PriceOptions {
  /** Also the live Windows prices: asked only for Windows AMI families. */
  readonly windows?: boolean;
}

export interface PriceProvider {
  /**
   * The region's prices. Never rejects: refreshes when the last live data is older than
   * Karpenter's 12-hour interval, keeps the last good data when a refresh fails, and answers
   * with the bundled tables until the first refresh succeeds.
   */
  prices(options?: PriceOptions): Promise<OfferingPrices>;
}

/** The whole cloud; consumers take the parts they use (`Pick<CloudProvider, 'instanceTypes'>`). */
export interface CloudProvider
  extends NodeClassResolver,
    InstanceProvider,
    InstanceTypeProvider,
    PriceProvider {}
