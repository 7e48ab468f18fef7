/**
 * An EC2NodeClass resolved as Karpenter's nodeclass controller fills its status: subnets,
 * security groups, AMIs, the instance profile, capacity reservations and the placement group it
 * selects. A selector that matches nothing makes the class unusable (Karpenter: condition not
 * Ready), which the port reports as NodeClassNotReadyError.
 */
import { amiFamilyOf } from '../../domain/node-class.ts';
import type {
  LaunchableNodeClass,
  NodeClassResolver,
  ResolvedNodeClass,
} from '../../ports/cloud-provider.ts';
import { NodeClassNotReadyError } from '../../ports/errors.ts';
import type { AmiProvider } from './amis.ts';
import type { CapacityReservationProvider } from './capacity-reservations.ts';
import type { InstanceProfiles } from './instance-profiles.ts';
import type { PlacementGroupProvider } from './placement-groups.ts';
import type { SecurityGroupProvider } from './security-groups.ts';
import type { SubnetProvider } from './subnets.ts';

export interface NodeClassParts {
  readonly subnets: SubnetProvider;
  readonly securityGroups: SecurityGroupProvider;
  readonly amis: AmiProvider;
  readonly instanceProfiles: InstanceProfiles;
  readonly capacityReservations: CapacityReservationProvider;
  readonly placementGroups: PlacementGroupProvider;
}

function nonEmpty<T>(items: readonly T[], nodeClass: string, what: string): readonly T[] {
  if (items.length > 0) return items;
  throw new NodeClassNotReadyError(
    `resolving ec2nodeclass ${nodeClass}: no ${what} match its selector terms`,
  );
}

export class Ec2NodeClassResolver implements NodeClassResolver {
  readonly #parts: NodeClassParts;

  constructor(parts: NodeClassParts) {
    this.#parts = parts;
  }

  async resolveNodeClass(nodeClass: LaunchableNodeClass): Promise<ResolvedNodeClass> {
    const { spec, metadata } = nodeClass;
    const selector = spec.placementGroupSelector;
    const [subnets, securityGroups, amis, instanceProfile, capacityReservations, placementGroup] =
      await Promise.all([
        this.#parts.subnets.list(spec.subnetSelectorTerms ?? []),
        this.#parts.securityGroups.list(spec.securityGroupSelectorTerms ?? []),
        this.#parts.amis.list(spec.amiSelectorTerms ?? []),
        this.#parts.instanceProfiles.resolve(nodeClass),
        this.#parts.capacityReservations.list(spec.capacityReservationSelectorTerms ?? []),
        selector === undefined
          ? undefined
          : this.#parts.placementGroups.get(selector, metadata.name),
      ]);
    return {
      name: metadata.name,
      amiFamily: amiFamilyOf(nodeClass),
      subnets: nonEmpty(subnets, metadata.name, 'subnets'),
      securityGroups: nonEmpty(securityGroups, metadata.name, 'security groups'),
      amis: nonEmpty(amis, metadata.name, 'AMIs'),
      instanceProfile,
      // Selecting none is no error: the class simply has no reserved offerings.
      capacityReservations,
      ...(placementGroup === undefined ? {} : { placementGroup }),
    };
  }
}
