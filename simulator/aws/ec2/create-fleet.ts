/**
 * CreateFleet of type `instant` as EC2 answers it: idempotent by `ClientToken`, the overrides
 * tried cheapest first (by `Priority` under a prioritized strategy), the first with capacity
 * launched, and every offering tried and found full reported in `Errors` as
 * `InsufficientInstanceCapacity`, next to the instance or instead of it. An on-demand launch takes
 * the capacity its template's reservation preference allows (reservation-placement.ts): a launch
 * that targets a reservation runs in it as reserved capacity, priced as already paid for, and one
 * refused there is reported with EC2's code (`ReservationCapacityExceeded` when it is full),
 * never launched into open capacity instead. A template that does not exist is an error of its
 * configuration. The instance boots as its template's user data says: the kubelets register it
 * with the labels and taints written there.
 */
import type {
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  CreateFleetError,
  CreateFleetInstance,
  FleetLaunchTemplateOverridesRequest,
  FleetLaunchTemplateSpecificationRequest,
} from '@aws-sdk/client-ec2';
import { TagKey } from '../../../functions/adapters/ec2/tags.ts';
import { UNREGISTERED_TAINT } from '../../../functions/adapters/ec2/user-data/bootstrap-options.ts';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../../functions/domain/instance-types/instance-types.ts';
import { RESERVED_PRICE_DIVISOR } from '../../../functions/domain/instance-types/reserved-offerings.ts';
import { type CapacityType, Label } from '../../../functions/domain/labels.ts';
import type { LaunchContext } from '../../../functions/ports/cloud-provider.ts';
import type { LaunchRequest, PricedOffering, SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import type { SimulatedInstance } from '../../cloud/simulated-instance.ts';
import { AwsError } from '../aws-service.ts';
import type { Ec2LaunchTemplates, StoredLaunchTemplate } from './ec2-launch-templates.ts';
import { kubeletRegistration } from './kubelet-registration.ts';
import { type ReservationPlacement, reservationPlacement } from './reservation-placement.ts';

interface Attempt extends PricedOffering {
  readonly template: StoredLaunchTemplate;
  readonly specification: FleetLaunchTemplateSpecificationRequest;
  readonly override: FleetLaunchTemplateOverridesRequest;
}

/** An attempt EC2 can fill, and the reservation it runs in, if any. */
interface Placed {
  readonly attempt: Attempt;
  readonly placement: Exclude<ReservationPlacement, { kind: 'refused' }>;
}

/**
 * The subnet the override names, the security groups the template attaches, directly or on its
 * network interface (when it sets the public IP choice), and the reservation it runs in: what
 * DescribeInstances reports.
 */
function networkOf({ attempt, placement }: Placed): Pick<LaunchRequest, 'network'> {
  const { override, template } = attempt;
  if (override.SubnetId === undefined) return {};
  const groups =
    template.data.SecurityGroupIds ?? template.data.NetworkInterfaces?.[0]?.Groups ?? [];
  const reservation =
    placement.kind === 'reservation' ? { capacityReservationId: placement.reservation.id } : {};
  return { network: { subnetId: override.SubnetId, securityGroupIds: groups, ...reservation } };
}

/**
 * The offering the instance takes: a launch that asked for reservations only is reserved capacity,
 * priced as Karpenter prices it, already paid for (aws: offering/reserved_capacity_resolver.go);
 * one that found room in an open reservation is still an on-demand launch.
 */
function offeringOf({ attempt, placement }: Placed): PricedOffering {
  const { instanceType, zone, capacityType, pricePerHour } = attempt;
  if (placement.kind !== 'reservation' || !placement.requested) {
    return { instanceType, zone, capacityType, pricePerHour };
  }
  return {
    instanceType,
    zone,
    capacityType: 'reserved',
    pricePerHour: pricePerHour / RESERVED_PRICE_DIVISOR,
  };
}

const PRIORITIZED = new Set(['prioritized', 'capacity-optimized-prioritized']);

function tagsOf(input: CreateFleetCommandInput): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const spec of input.TagSpecifications ?? []) {
    if (spec.ResourceType !== 'instance') continue;
    for (const { Key, Value } of spec.Tags ?? []) if (Key !== undefined) tags[Key] = Value ?? '';
  }
  return tags;
}

function byPrice(a: Attempt, b: Attempt): number {
  return (
    a.pricePerHour - b.pricePerHour ||
    (a.instanceType < b.instanceType ? -1 : a.instanceType > b.instanceType ? 1 : 0) ||
    (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0)
  );
}

function byPriority(a: Attempt, b: Attempt): number {
  return (
    (a.override.Priority ?? Number.MAX_VALUE) - (b.override.Priority ?? Number.MAX_VALUE) ||
    byPrice(a, b)
  );
}

function templateAndOverrides(attempt: Attempt) {
  const { InstanceType, SubnetId, AvailabilityZone, ImageId, Priority } = attempt.override;
  return {
    LaunchTemplateSpecification: attempt.specification,
    Overrides: { InstanceType, SubnetId, AvailabilityZone, ImageId, Priority },
  };
}

function capacityError(attempt: Attempt): CreateFleetError {
  return {
    LaunchTemplateAndOverrides: templateAndOverrides(attempt),
    Lifecycle: attempt.capacityType === 'spot' ? 'spot' : 'on-demand',
    ErrorCode: 'InsufficientInstanceCapacity',
    ErrorMessage: `We currently do not have sufficient ${attempt.instanceType} capacity in the Availability Zone you requested (${attempt.zone}). Our system will be working on provisioning additional capacity.`,
  };
}

function refusal(
  attempt: Attempt,
  refused: Extract<ReservationPlacement, { kind: 'refused' }>,
): CreateFleetError {
  return {
    LaunchTemplateAndOverrides: templateAndOverrides(attempt),
    Lifecycle: 'on-demand',
    ErrorCode: refused.code,
    ErrorMessage: refused.message,
  };
}

function templateMissing(
  specification: FleetLaunchTemplateSpecificationRequest,
  capacityType: CapacityType,
): CreateFleetError {
  return {
    LaunchTemplateAndOverrides: { LaunchTemplateSpecification: specification },
    Lifecycle: capacityType === 'spot' ? 'spot' : 'on-demand',
    ErrorCode: 'InvalidLaunchTemplateName.NotFoundException',
    ErrorMessage: `The specified launch template, with template name ${specification.LaunchTemplateName}, does not exist.`,
  };
}

export class CreateFleet {
  readonly #ec2: SimulatedEc2;
  readonly #templates: Ec2LaunchTemplates;

  constructor(ec2: SimulatedEc2, templates: Ec2LaunchTemplates) {
    this.#ec2 = ec2;
    this.#templates = templates;
  }

  run(input: CreateFleetCommandInput): Partial<CreateFleetCommandOutput> {
    if (input.Type !== 'instant') {
      throw new AwsError(
        'InvalidParameterValue',
        `Fleet type ${input.Type} is not supported here.`,
      );
    }
    const token = input.ClientToken ?? '';
    const capacityType: CapacityType =
      input.TargetCapacitySpecification?.DefaultTargetCapacityType === 'spot'
        ? 'spot'
        : 'on-demand';
    const fleetId = `fleet-${token.length > 0 ? token.slice(0, 8) : 'anonymous'}`;
    const existing = token === '' ? undefined : this.#ec2.launchedFor(token);
    if (existing !== undefined) {
      return { FleetId: fleetId, Instances: [this.#launched(existing, undefined)], Errors: [] };
    }
    const { attempts, errors } = this.#attempts(input, capacityType);
    const placed = this.#firstPlaced(attempts, errors);
    if (placed === undefined) return { FleetId: fleetId, Instances: [], Errors: errors };
    const chosen = placed.attempt;
    const tags = tagsOf(input);
    const instance = this.#ec2.start(
      offeringOf(placed),
      {
        token,
        nodeClaim: tags[TagKey.nodeClaim] ?? '',
        nodePool: tags[TagKey.nodePool] ?? tags[TagKey.karpenterNodePool] ?? '',
        nodeClass: tags[Label.nodeClass] ?? '',
        imageId: chosen.override.ImageId ?? chosen.template.data.ImageId ?? '',
        ...networkOf(placed),
        owned: tags[TagKey.ownership] !== undefined,
        tags,
      },
      this.#launchContext(chosen, tags),
    );
    return { FleetId: fleetId, Instances: [this.#launched(instance, chosen)], Errors: errors };
  }

  /** The first attempt EC2 can fill; each one tried before it is reported in `errors`. */
  #firstPlaced(attempts: readonly Attempt[], errors: CreateFleetError[]): Placed | undefined {
    for (const attempt of attempts) {
      const placement = reservationPlacement(attempt, attempt.template.data, this.#ec2);
      if (placement.kind === 'refused') errors.push(refusal(attempt, placement));
      else if (placement.kind === 'reservation' || this.#ec2.capacity.has(attempt)) {
        return { attempt, placement };
      } else errors.push(capacityError(attempt));
    }
    return undefined;
  }

  #attempts(input: CreateFleetCommandInput, capacityType: CapacityType) {
    const errors: CreateFleetError[] = [];
    const attempts: Attempt[] = [];
    for (const config of input.LaunchTemplateConfigs ?? []) {
      const specification = config.LaunchTemplateSpecification ?? {};
      const template = this.#templates.find(specification);
      if (template === undefined) {
        errors.push(templateMissing(specification, capacityType));
        continue;
      }
      const context = { template, specification, capacityType };
      attempts.push(...(config.Overrides ?? []).flatMap((o) => this.#attempt(context, o)));
    }
    const strategy =
      capacityType === 'spot'
        ? input.SpotOptions?.AllocationStrategy
        : input.OnDemandOptions?.AllocationStrategy;
    attempts.sort(PRIORITIZED.has(strategy ?? '') ? byPriority : byPrice);
    return { attempts, errors };
  }

  /** The override at its price; none for a type the region does not price. */
  #attempt(
    context: Pick<Attempt, 'template' | 'specification' | 'capacityType'>,
    override: FleetLaunchTemplateOverridesRequest,
  ): Attempt[] {
    const instanceType = override.InstanceType ?? '';
    const zone = override.AvailabilityZone ?? this.#zoneOfSubnet(override.SubnetId);
    const price = this.#ec2.priceOf(instanceType, zone, context.capacityType);
    return price === undefined
      ? []
      : [{ ...context, instanceType, zone, pricePerHour: price, override }];
  }

  #zoneOfSubnet(subnetId: string | undefined): string {
    return this.#ec2.subnets().find((subnet) => subnet.id === subnetId)?.zone ?? '';
  }

  /** What the kubelets register the node with, from the template as the node boots it. */
  #launchContext(chosen: Attempt, tags: Readonly<Record<string, string>>): LaunchContext {
    const registration = kubeletRegistration(chosen.template.data.UserData);
    const nodeClass = {
      metadata: { name: tags[Label.nodeClass] ?? '' },
      spec: {
        ...(registration.amiFamily === undefined ? {} : { amiFamily: registration.amiFamily }),
        ...(registration.maxPods === undefined
          ? {}
          : { kubelet: { maxPods: registration.maxPods } }),
      },
    };
    const { region, zones } = this.#ec2.options;
    const prices = this.#ec2.prices;
    return {
      nodeClass,
      labels: registration.labels,
      // The kubelets add the unregistered taint themselves, as every node registers with it.
      taints: registration.taints.filter(
        (t) => !(t.key === UNREGISTERED_TAINT.key && t.effect === UNREGISTERED_TAINT.effect),
      ),
      startupTaints: [],
      instanceTypes: buildInstanceTypes({
        catalog: BUNDLED_CATALOG.filter((entry) => entry.name === chosen.instanceType),
        region,
        prices: prices.onDemand,
        spotPrices: prices.spot,
        currency: prices.currency,
        zones,
        unavailable: new Set(),
        nodeClass,
      }),
    };
  }

  #launched(instance: SimulatedInstance, attempt: Attempt | undefined): CreateFleetInstance {
    return {
      ...(attempt === undefined
        ? {}
        : { LaunchTemplateAndOverrides: templateAndOverrides(attempt) }),
      Lifecycle: instance.capacityType === 'spot' ? 'spot' : 'on-demand',
      InstanceIds: [instance.instanceId],
      InstanceType: instance.instanceType as CreateFleetInstance['InstanceType'],
    };
  }
}
