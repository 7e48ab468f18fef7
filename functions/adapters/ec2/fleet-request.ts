/**
 * The CreateFleet request for one claim (aws: pkg/providers/instance/types.go): an instant fleet
 * of one instance, spot by price-capacity-optimized, on-demand by lowest price (both by priority
 * when a NodeOverlay set prices), tagged on the
 * instance, its volumes and the fleet, with the claim's name as the idempotency token.
 */

import { createHash } from 'node:crypto';
import type {
  _InstanceType,
  CreateFleetCommandInput,
  FleetLaunchTemplateConfigRequest,
} from '@aws-sdk/client-ec2';
import type { CapacityType } from '../../domain/labels.ts';
import type { LaunchGroup, TargetedReservation } from './launch-plan.ts';
import { toTags } from './mappers.ts';

/** EC2 accepts client tokens of at most 64 ASCII characters. */
const MAX_CLIENT_TOKEN = 64;

/** The claim's name, or for a name too long a prefix of it and a hash: still one token per claim. */
export function clientTokenOf(claimName: string): string {
  if (claimName.length <= MAX_CLIENT_TOKEN) return claimName;
  const hash = createHash('sha256').update(claimName).digest('hex').slice(0, 16);
  return `${claimName.slice(0, MAX_CLIENT_TOKEN - hash.length - 1)}-${hash}`;
}

export interface FleetTemplate {
  readonly launchTemplateName: string;
  readonly group: LaunchGroup;
}

export interface FleetRequest {
  readonly claimName: string;
  readonly capacityType: CapacityType;
  readonly templates: readonly FleetTemplate[];
  readonly tags: Readonly<Record<string, string>>;
  /** Prefer the overrides by their priority (a NodeOverlay's price) over EC2's own prices. */
  readonly prioritized: boolean;
  /** The EC2NodeClass's fleet context, if any. */
  readonly context?: string;
  /** A reserved launch's kind of reservation: it decides the fleet's market. */
  readonly reservation?: Omit<TargetedReservation, 'id'>;
}

function launchTemplateConfig(
  { launchTemplateName, group }: FleetTemplate,
  prioritized: boolean,
): FleetLaunchTemplateConfigRequest {
  return {
    LaunchTemplateSpecification: { LaunchTemplateName: launchTemplateName, Version: '$Latest' },
    // The zone is redundant with the subnet, but it lets a capacity error name its offering.
    Overrides: group.overrides.map((override) => ({
      InstanceType: override.instanceType as _InstanceType,
      SubnetId: override.subnetId,
      AvailabilityZone: override.zone,
      ImageId: group.imageId,
      ...(prioritized ? { Priority: override.price } : {}),
    })),
  };
}

/**
 * Spot by price and capacity, on-demand and ODCRs by lowest price, by priority when prioritized;
 * a capacity block takes no allocation strategy, an interruptible ODCR asks for that reservation
 * type (aws: instance/types.go CreateFleetInputBuilder.Build).
 */
function allocation(request: FleetRequest): Partial<CreateFleetCommandInput> {
  const { prioritized, reservation } = request;
  if (request.capacityType === 'spot') {
    const strategy = prioritized ? 'capacity-optimized-prioritized' : 'price-capacity-optimized';
    return { SpotOptions: { AllocationStrategy: strategy } };
  }
  if (reservation?.interruptible === true) {
    return {
      ReservedCapacityOptions: { ReservationTypes: ['interruptible-capacity-reservation'] },
    };
  }
  if (reservation?.type === 'capacity-block') return {};
  return { OnDemandOptions: { AllocationStrategy: prioritized ? 'prioritized' : 'lowest-price' } };
}

/** The fleet's market (aws: instance/types.go `defaultTargetCapacityType`). */
function targetCapacityType(request: FleetRequest) {
  const { capacityType, reservation } = request;
  if (capacityType !== 'reserved') return capacityType;
  if (reservation?.type === 'capacity-block') return 'capacity-block';
  return reservation?.interruptible === true ? 'reserved-capacity' : 'on-demand';
}

export function toCreateFleetInput(request: FleetRequest): CreateFleetCommandInput {
  const tags = toTags(request.tags);
  return {
    Type: 'instant',
    ClientToken: clientTokenOf(request.claimName),
    ...(request.context === undefined ? {} : { Context: request.context }),
    LaunchTemplateConfigs: request.templates.map((t) =>
      launchTemplateConfig(t, request.prioritized),
    ),
    TargetCapacitySpecification: {
      TotalTargetCapacity: 1,
      DefaultTargetCapacityType: targetCapacityType(request),
    },
    ...allocation(request),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: tags },
      { ResourceType: 'volume', Tags: tags },
      { ResourceType: 'fleet', Tags: tags },
    ],
  };
}
