/**
 * The CloudProvider port on EC2, SSM and the Pricing API: one object per cluster, built once per
 * Lambda container by the composition root so its caches live as long as the container.
 *
 * @example
 * const cloud = new Ec2CloudProvider({ ec2, ssm, pricing, cluster, now: () => new Date() });
 * const types = await cloud.instanceTypes(nodeClass, { unavailable });
 */

import type { InstanceType } from '../../domain/instance-type.ts';
import type { InstanceStatus } from '../../domain/interruption/instance-status.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type {
  CloudProvider,
  InstanceTypeOptions,
  LaunchableNodeClass,
  LaunchContext,
  LaunchResult,
  ManagedInstance,
  OfferingPrices,
  PriceOptions,
  ResolvedNodeClass,
} from '../../ports/cloud-provider.ts';
import { AmiProvider } from './amis.ts';
import { CapacityReservationProvider } from './capacity-reservations.ts';
import type { Ec2Api, Now, PricingApi, SsmApi } from './clients.ts';
import type { ClusterSettings } from './cluster-settings.ts';
import { Ec2InstanceProvider } from './ec2-instance-provider.ts';
import { Ec2InstanceTypeProvider } from './ec2-instance-type-provider.ts';
import { type InstanceProfileProvisioner, InstanceProfiles } from './instance-profiles.ts';
import { LaunchTemplates } from './launch-templates.ts';
import { Ec2NodeClassResolver } from './node-class-resolver.ts';
import { PlacementGroupProvider } from './placement-groups.ts';
import { Ec2PriceProvider } from './pricing.ts';
import { SecurityGroupProvider } from './security-groups.ts';
import { SsmParameters } from './ssm-parameters.ts';
import { SubnetProvider } from './subnets.ts';

export interface Ec2CloudProviderOptions {
  readonly ec2: Ec2Api;
  readonly ssm: SsmApi;
  readonly pricing: PricingApi;
  readonly cluster: ClusterSettings;
  readonly now: Now;
  /** Needed only by EC2NodeClasses that name a `role` rather than an `instanceProfile`. */
  readonly instanceProfiles?: InstanceProfileProvisioner;
  /** Told about refreshes that failed while last good (or bundled) data was served. */
  readonly onRefreshError?: (err: unknown, what: string) => void;
}

export class Ec2CloudProvider implements CloudProvider {
  readonly #resolver: Ec2NodeClassResolver;
  readonly #instances: Ec2InstanceProvider;
  readonly #instanceTypes: Ec2InstanceTypeProvider;
  readonly #prices: Ec2PriceProvider;

  constructor(options: Ec2CloudProviderOptions) {
    const { ec2, cluster, now } = options;
    const subnets = new SubnetProvider(ec2, now);
    const capacityReservations = new CapacityReservationProvider(ec2, now);
    const placementGroups = new PlacementGroupProvider(ec2, now);
    this.#resolver = new Ec2NodeClassResolver({
      subnets,
      placementGroups,
      securityGroups: new SecurityGroupProvider(ec2, now),
      amis: new AmiProvider({ ec2, ssm: new SsmParameters(options.ssm, now), cluster, now }),
      instanceProfiles: new InstanceProfiles({
        cluster,
        now,
        provisioner: options.instanceProfiles,
      }),
      capacityReservations,
    });
    this.#prices = new Ec2PriceProvider({ ...options, region: cluster.region });
    this.#instanceTypes = new Ec2InstanceTypeProvider({
      ...options,
      subnets,
      capacityReservations,
      placementGroups,
      prices: this.#prices,
      region: cluster.region,
    });
    const launchTemplates = new LaunchTemplates({ ec2, clusterName: cluster.name, now });
    this.#instances = new Ec2InstanceProvider({
      ec2,
      cluster,
      now,
      resolver: this.#resolver,
      launchTemplates,
      capacityReservations,
    });
  }

  resolveNodeClass(nodeClass: LaunchableNodeClass): Promise<ResolvedNodeClass> {
    return this.#resolver.resolveNodeClass(nodeClass);
  }

  launch(claim: NodeClaimRecord, context: LaunchContext): Promise<LaunchResult> {
    return this.#instances.launch(claim, context);
  }

  terminate(instanceId: string): Promise<void> {
    return this.#instances.terminate(instanceId);
  }

  listManaged(): Promise<readonly ManagedInstance[]> {
    return this.#instances.listManaged();
  }

  describe(instanceIds: readonly string[]): Promise<readonly ManagedInstance[]> {
    return this.#instances.describe(instanceIds);
  }

  instanceStatuses(): Promise<readonly InstanceStatus[]> {
    return this.#instances.instanceStatuses();
  }

  claimOwnership(instanceIds: readonly string[]): Promise<void> {
    return this.#instances.claimOwnership(instanceIds);
  }

  instanceTypes(
    nodeClass: LaunchableNodeClass,
    options?: InstanceTypeOptions,
  ): Promise<readonly InstanceType[]> {
    return this.#instanceTypes.instanceTypes(nodeClass, options);
  }

  prices(options?: PriceOptions): Promise<OfferingPrices> {
    return this.#prices.prices(options);
  }
}
