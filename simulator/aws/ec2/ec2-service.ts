/**
 * EC2 as the simulated account serves it over its query protocol (docs/design.md §9): every
 * operation the EC2 adapter calls, on the same instances, capacity, prices and network as the
 * in-process cloud, so what a deployed function launches is what the world boots, interrupts and
 * reclaims. A throttled call is refused with `RequestLimitExceeded`, as EC2 refuses it.
 */
import {
  CreateFleet$,
  type CreateFleetCommandInput,
  CreateLaunchTemplate$,
  type CreateLaunchTemplateCommandInput,
  CreateTags$,
  type CreateTagsCommandInput,
  DescribeCapacityReservations$,
  type DescribeCapacityReservationsCommandInput,
  DescribeImages$,
  type DescribeImagesCommandInput,
  DescribeInstances$,
  type DescribeInstancesCommandInput,
  DescribeInstanceTypeOfferings$,
  type DescribeInstanceTypeOfferingsCommandInput,
  DescribeInstanceTypes$,
  DescribeLaunchTemplates$,
  type DescribeLaunchTemplatesCommandInput,
  DescribePlacementGroups$,
  type DescribePlacementGroupsCommandInput,
  DescribeSecurityGroups$,
  type DescribeSecurityGroupsCommandInput,
  DescribeSpotPriceHistory$,
  type DescribeSpotPriceHistoryCommandInput,
  DescribeSubnets$,
  type DescribeSubnetsCommandInput,
  TerminateInstances$,
  type TerminateInstancesCommandInput,
} from '@aws-sdk/client-ec2';
import { TagKey } from '../../../functions/adapters/ec2/tags.ts';
import type { SimulatedEc2 } from '../../cloud/simulated-ec2.ts';
import type { SimulatedInstance } from '../../cloud/simulated-instance.ts';
import { AwsError, type AwsOperation } from '../aws-service.ts';
import { QueryService } from '../query/query-service.ts';
import { CreateFleet } from './create-fleet.ts';
import { describeCapacityReservations } from './ec2-capacity-reservations.ts';
import {
  ACCOUNT_ID,
  describeInstanceTypeOfferings,
  describeInstanceTypes,
  describeSpotPriceHistory,
  imageFilters,
  imageOf,
  KNOWN_IMAGES,
} from './ec2-catalog.ts';
import { matchesFilters, where } from './ec2-filters.ts';
import { instanceFilters, instanceState, instanceTags, toInstance } from './ec2-instances.ts';
import { Ec2LaunchTemplates } from './ec2-launch-templates.ts';
import { describeSecurityGroups, describeSubnets } from './ec2-network.ts';
import { page } from './ec2-paging.ts';
import { describePlacementGroups } from './ec2-placement-groups.ts';

const OPERATIONS = {
  CreateFleet: CreateFleet$,
  CreateLaunchTemplate: CreateLaunchTemplate$,
  CreateTags: CreateTags$,
  DescribeCapacityReservations: DescribeCapacityReservations$,
  DescribeImages: DescribeImages$,
  DescribeInstances: DescribeInstances$,
  DescribeInstanceTypeOfferings: DescribeInstanceTypeOfferings$,
  DescribeInstanceTypes: DescribeInstanceTypes$,
  DescribeLaunchTemplates: DescribeLaunchTemplates$,
  DescribePlacementGroups: DescribePlacementGroups$,
  DescribeSecurityGroups: DescribeSecurityGroups$,
  DescribeSpotPriceHistory: DescribeSpotPriceHistory$,
  DescribeSubnets: DescribeSubnets$,
  TerminateInstances: TerminateInstances$,
};

export interface Ec2ServiceOptions {
  readonly ec2: SimulatedEc2;
  /** The cluster whose tags instances started outside the API carry. */
  readonly clusterName: string;
}

type Handler = (input: never) => unknown;

function instanceNotFound(ids: readonly string[]): AwsError {
  const quoted = ids.map((id) => `'${id}'`).join(', ');
  const noun = ids.length === 1 ? 'ID' : 'IDs';
  return new AwsError(
    'InvalidInstanceID.NotFound',
    `The instance ${noun} ${quoted} do${ids.length === 1 ? 'es' : ''} not exist`,
  );
}

export class Ec2Service extends QueryService {
  readonly #ec2: SimulatedEc2;
  readonly #clusterName: string;
  readonly #templates = new Ec2LaunchTemplates();
  readonly #fleet: CreateFleet;
  readonly #handlers: Readonly<Record<keyof typeof OPERATIONS, Handler>>;

  constructor(options: Ec2ServiceOptions) {
    super(
      { signingName: 'ec2', actionPrefix: 'ec2' },
      {
        operations: OPERATIONS,
        xmlNamespace: 'http://ec2.amazonaws.com/doc/2016-11-15/',
        ec2: true,
      },
    );
    this.#ec2 = options.ec2;
    this.#clusterName = options.clusterName;
    this.#fleet = new CreateFleet(this.#ec2, this.#templates);
    this.#handlers = {
      CreateFleet: (input: CreateFleetCommandInput) => this.#fleet.run(input),
      CreateLaunchTemplate: (input: CreateLaunchTemplateCommandInput) => ({
        LaunchTemplate: this.#templates.create(input, this.#ec2.options.clock.now()),
      }),
      CreateTags: (input: CreateTagsCommandInput) => this.#createTags(input),
      DescribeCapacityReservations: (input: DescribeCapacityReservationsCommandInput) =>
        describeCapacityReservations(this.#ec2, input),
      DescribeImages: (input: DescribeImagesCommandInput) => this.#describeImages(input),
      DescribeInstances: (input: DescribeInstancesCommandInput) => this.#describeInstances(input),
      DescribeInstanceTypeOfferings: (input: DescribeInstanceTypeOfferingsCommandInput) =>
        describeInstanceTypeOfferings(this.#ec2, input),
      DescribeInstanceTypes: describeInstanceTypes,
      DescribeLaunchTemplates: (input: DescribeLaunchTemplatesCommandInput) => ({
        LaunchTemplates: this.#templates.describe(input.LaunchTemplateNames),
      }),
      DescribePlacementGroups: (input: DescribePlacementGroupsCommandInput) =>
        describePlacementGroups(this.#ec2, input),
      DescribeSecurityGroups: (input: DescribeSecurityGroupsCommandInput) =>
        describeSecurityGroups(this.#ec2, input),
      DescribeSpotPriceHistory: (input: DescribeSpotPriceHistoryCommandInput) =>
        describeSpotPriceHistory(this.#ec2, input),
      DescribeSubnets: (input: DescribeSubnetsCommandInput) => describeSubnets(this.#ec2, input),
      TerminateInstances: (input: TerminateInstancesCommandInput) => this.#terminate(input),
    };
  }

  override async invoke(operation: AwsOperation): Promise<unknown> {
    if (!(await this.#ec2.admit())) {
      throw new AwsError('RequestLimitExceeded', 'Request limit exceeded.', 503);
    }
    const handler = this.#handlers[operation.name as keyof typeof OPERATIONS];
    return (handler as (input: unknown) => unknown)(operation.input);
  }

  /**
   * The tags of the resource an ARN names, as the authorizer reads them for
   * `aws:ResourceTag`; undefined when the account holds no such resource.
   */
  tagsOf(arn: string): Readonly<Record<string, string>> | undefined {
    const [type = '', id = ''] = arn.slice(arn.lastIndexOf(':') + 1).split('/');
    switch (type) {
      case 'instance': {
        const instance = this.#ec2.find(id);
        return instance === undefined ? undefined : this.#tags(instance);
      }
      case 'subnet':
        return this.#ec2.subnets().find((subnet) => subnet.id === id)?.tags;
      case 'security-group':
        return this.#ec2.securityGroups().find((group) => group.id === id)?.tags;
      case 'image':
        return id.startsWith('ami-') ? {} : undefined;
      case 'launch-template':
        return this.launchTemplate({ LaunchTemplateId: id })?.tags;
      case 'placement-group':
        return this.#ec2.placementGroup({ name: id }) === undefined ? undefined : {};
      default:
        return undefined;
    }
  }

  /** The name of the account's placement group with this id, which its ARN carries. */
  placementGroupName(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.#ec2.placementGroup({ id })?.name;
  }

  /** The names of the account's launch templates, in creation order. */
  launchTemplateNames(): string[] {
    return this.#templates.all().map((template) => template.summary.LaunchTemplateName ?? '');
  }

  /** A launch template as the authorizer reads it: its ARN, tags and data. */
  launchTemplate(spec: { LaunchTemplateId?: string; LaunchTemplateName?: string }) {
    const template = this.#templates.find(spec);
    if (template === undefined) return undefined;
    const { region } = this.#ec2.options;
    const tags = Object.fromEntries(
      (template.summary.Tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']),
    );
    return {
      arn: `arn:aws:ec2:${region}:${ACCOUNT_ID}:launch-template/${template.summary.LaunchTemplateId}`,
      tags,
      data: template.data,
    };
  }

  #tags(instance: SimulatedInstance): Record<string, string> {
    return instanceTags(this.#ec2, instance, this.#clusterName);
  }

  /** The instances named; any unknown id refuses the whole call. */
  #named(ids: readonly string[]): SimulatedInstance[] {
    const found = ids.map((id) => this.#ec2.find(id));
    const missing = ids.filter((_, index) => found[index] === undefined);
    if (missing.length > 0) throw instanceNotFound(missing);
    return found as SimulatedInstance[];
  }

  #describeInstances(input: DescribeInstancesCommandInput) {
    const ids = input.InstanceIds ?? [];
    const candidates = ids.length > 0 ? this.#named(ids) : this.#ec2.instances();
    const matching = candidates.filter((instance) =>
      matchesFilters(input.Filters, instanceFilters(this.#ec2, instance, this.#tags(instance))),
    );
    const { items, NextToken } = page(matching, input, 1000);
    return {
      Reservations: items.map((instance) => ({
        ReservationId: `r-${instance.instanceId.slice(2)}`,
        OwnerId: ACCOUNT_ID,
        Instances: [toInstance(this.#ec2, instance, this.#tags(instance))],
      })),
      NextToken,
    };
  }

  #describeImages(input: DescribeImagesCommandInput) {
    const asked = (input.Filters ?? [])
      .filter((filter) => filter.Name === 'image-id')
      .flatMap((filter) => filter.Values ?? [])
      .concat(input.ImageIds ?? [])
      .filter((id) => id.startsWith('ami-') && !/[*?]/.test(id));
    const known = new Set(KNOWN_IMAGES.map((image) => image.ImageId));
    const images = [...KNOWN_IMAGES, ...asked.filter((id) => !known.has(id)).map(imageOf)];
    const owners = input.Owners ?? [];
    const owned = images.filter(
      (image) =>
        owners.length === 0 ||
        owners.some((o) => o === image.OwnerId || o === image.ImageOwnerAlias),
    );
    const ids = new Set(input.ImageIds ?? []);
    const named = ids.size === 0 ? owned : owned.filter((image) => ids.has(image.ImageId ?? ''));
    const { items, NextToken } = page(where(named, input.Filters, imageFilters), input, 1000);
    return { Images: items, NextToken };
  }

  #terminate(input: TerminateInstancesCommandInput) {
    const instances = this.#named(input.InstanceIds ?? []);
    return {
      TerminatingInstances: instances.map((instance) => {
        const previous = this.#ec2.state(instance);
        this.#ec2.terminate(instance.instanceId);
        return {
          InstanceId: instance.instanceId,
          PreviousState: instanceState(previous),
          CurrentState: instanceState(previous === 'terminated' ? 'terminated' : 'shutting-down'),
        };
      }),
    };
  }

  /** Tags instances; Nodesmith's ownership tag makes the instance Nodesmith's. */
  #createTags(input: CreateTagsCommandInput) {
    const ids = (input.Resources ?? []).filter((id) => id.startsWith('i-'));
    const instances = this.#named(ids);
    const tags = Object.fromEntries((input.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
    for (const instance of instances) {
      this.#ec2.tag(instance.instanceId, { ...this.#tags(instance), ...tags });
      if (tags[TagKey.ownership] === this.#clusterName) instance.owned = true;
    }
    return {};
  }
}
