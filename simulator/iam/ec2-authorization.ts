/**
 * What EC2 authorizes for the calls Nodesmith makes (Service Authorization Reference, Amazon EC2;
 * the EC2 User Guide's "Grant permission to tag resources during creation"). An instant
 * CreateFleet launches as RunInstances does: `ec2:CreateFleet` and `ec2:RunInstances` on every
 * resource the launch uses (the launch template with its tags, the images, subnets and security
 * groups) and on every resource it creates (`instance/*`, `volume/*`, `network-interface/*`,
 * and for spot `spot-instances-request/*`) with the tags the request puts on each as
 * `aws:RequestTag`, the fleet itself under `ec2:CreateFleet`; `ec2:CreateTags` on each resource
 * tagged on create, with `ec2:CreateAction`; and `iam:PassRole`, to EC2, of the role in the
 * template's instance profile. The tags a launch template specifies count as requested, so the
 * network interfaces it tags are authorized with them. Karpenter's controller policy grants
 * exactly these pairs (aws/karpenter-provider-aws, website/content/en/docs/getting-started/
 * getting-started-with-karpenter/cloudformation.yaml). An instance EC2 does not hold is left
 * out: EC2 answers `InvalidInstanceID.NotFound` for it, not a denial.
 */
import type {
  CreateFleetCommandInput,
  CreateLaunchTemplateCommandInput,
  CreateTagsCommandInput,
  FleetLaunchTemplateConfigRequest,
  RequestLaunchTemplateData,
  TagSpecification,
  TerminateInstancesCommandInput,
} from '@aws-sdk/client-ec2';
import type { AuthorizationLookups, StoredLaunchTemplate } from './authorization-lookups.ts';
import {
  type Authorization,
  type CallPlace,
  type ContextValues,
  requestTags,
  resourceTags,
  type Tags,
} from './authorization-request.ts';

/** EC2's resource types by the prefix of their ids; images and snapshots name no account. */
const ID_PREFIXES: readonly [string, string][] = [
  ['i-', 'instance'],
  ['vol-', 'volume'],
  ['eni-', 'network-interface'],
  ['lt-', 'launch-template'],
  ['fleet-', 'fleet'],
  ['sg-', 'security-group'],
  ['subnet-', 'subnet'],
  ['ami-', 'image'],
  ['snap-', 'snapshot'],
];

export function ec2Arn(place: CallPlace, type: string, id: string): string {
  const account = type === 'image' || type === 'snapshot' ? '' : place.accountId;
  return `arn:${place.partition}:ec2:${place.region}:${account}:${type}/${id}`;
}

/** The ARN of a resource by its id: `i-0abc…` is an instance. */
export function ec2ArnOfId(place: CallPlace, id: string): string {
  const type = ID_PREFIXES.find(([prefix]) => id.startsWith(prefix))?.[1];
  if (type === undefined) throw new Error(`no EC2 resource type for id ${id}`);
  return ec2Arn(place, type, id);
}

function tagsOfType(specifications: readonly TagSpecification[] | undefined, type: string): Tags {
  const tags = (specifications ?? [])
    .filter((specification) => specification.ResourceType === type)
    .flatMap((specification) => specification.Tags ?? []);
  return Object.fromEntries(tags.map((tag) => [tag.Key ?? '', tag.Value ?? '']));
}

const LAUNCH = ['ec2:CreateFleet', 'ec2:RunInstances'];

function onEach(actions: readonly string[], resource: string, context: ContextValues) {
  return actions.map((action) => ({ action, resource, context }));
}

function securityGroupsOf(data: RequestLaunchTemplateData): string[] {
  return [
    ...(data.SecurityGroupIds ?? []),
    ...(data.NetworkInterfaces ?? []).flatMap((networkInterface) => networkInterface.Groups ?? []),
  ];
}

/**
 * The existing resources one launch template config uses: the template, images, subnets,
 * security groups and its placement group.
 */
function launchInputs(
  config: FleetLaunchTemplateConfigRequest,
  template: StoredLaunchTemplate,
  place: CallPlace,
  lookups: AuthorizationLookups,
): Authorization[] {
  const overrides = config.Overrides ?? [];
  const images = overrides.map((o) => o.ImageId ?? template.data.ImageId);
  const subnets = overrides.map(
    (o) => o.SubnetId ?? template.data.NetworkInterfaces?.[0]?.SubnetId,
  );
  const group = lookups.placementGroupName(template.data.Placement?.GroupId);
  const arns = [
    ...images.flatMap((id) => (id === undefined ? [] : [ec2Arn(place, 'image', id)])),
    ...subnets.flatMap((id) => (id === undefined ? [] : [ec2Arn(place, 'subnet', id)])),
    ...securityGroupsOf(template.data).map((id) => ec2Arn(place, 'security-group', id)),
    // EC2 names a placement group's ARN by its name, whichever the template gives.
    ...(group === undefined ? [] : [ec2Arn(place, 'placement-group', group)]),
  ];
  return [
    ...onEach(LAUNCH, template.arn, resourceTags(template.tags, 'ec2')),
    ...arns.flatMap((arn) => onEach(LAUNCH, arn, resourceTags(lookups.tagsOf(arn), 'ec2'))),
  ];
}

/** A resource a request creates with tags: the create itself, and tagging it on create. */
function created(
  actions: readonly string[],
  arn: string,
  tags: Tags,
  createAction: string,
): Authorization[] {
  const tagging = requestTags(tags);
  const tagOnCreate =
    Object.keys(tags).length === 0
      ? []
      : [
          {
            action: 'ec2:CreateTags',
            resource: arn,
            context: { ...tagging, 'ec2:CreateAction': createAction },
          },
        ];
  return [...onEach(actions, arn, tagging), ...tagOnCreate];
}

function passRoles(
  templates: readonly StoredLaunchTemplate[],
  lookups: AuthorizationLookups,
): Authorization[] {
  const names = templates.flatMap(({ data }) => {
    const profile = data.IamInstanceProfile;
    const name = profile?.Name ?? profile?.Arn?.slice(profile.Arn.lastIndexOf('/') + 1);
    return name === undefined ? [] : [name];
  });
  return names.flatMap((name) =>
    (lookups.instanceProfile(name)?.roleArns ?? []).map((role) => ({
      action: 'iam:PassRole',
      resource: role,
      context: { 'iam:PassedToService': 'ec2.amazonaws.com' },
    })),
  );
}

function createFleet(
  input: CreateFleetCommandInput,
  place: CallPlace,
  lookups: AuthorizationLookups,
): Authorization[] {
  const configs = (input.LaunchTemplateConfigs ?? []).flatMap((config) => {
    const template = lookups.launchTemplate(config.LaunchTemplateSpecification ?? {});
    // A template EC2 does not hold is answered as an invalid parameter, not a denial.
    return template === undefined ? [] : [{ config, template }];
  });
  const templates = configs.map(({ template }) => template);
  const specified = (type: string) => ({
    ...Object.assign({}, ...templates.map(({ data }) => tagsOfType(data.TagSpecifications, type))),
    ...tagsOfType(input.TagSpecifications, type),
  });
  const spot = input.TargetCapacitySpecification?.DefaultTargetCapacityType === 'spot';
  return [
    ...configs.flatMap(({ config, template }) => launchInputs(config, template, place, lookups)),
    ...created(['ec2:CreateFleet'], ec2Arn(place, 'fleet', '*'), specified('fleet'), 'CreateFleet'),
    ...['instance', 'volume', 'network-interface'].flatMap((type) =>
      created(LAUNCH, ec2Arn(place, type, '*'), specified(type), 'CreateFleet'),
    ),
    ...(spot ? onEach(LAUNCH, ec2Arn(place, 'spot-instances-request', '*'), {}) : []),
    ...passRoles(templates, lookups),
  ];
}

function createLaunchTemplate(input: CreateLaunchTemplateCommandInput, place: CallPlace) {
  const tags = tagsOfType(input.TagSpecifications, 'launch-template');
  const arn = ec2Arn(place, 'launch-template', '*');
  return created(['ec2:CreateLaunchTemplate'], arn, tags, 'CreateLaunchTemplate');
}

function createTags(
  input: CreateTagsCommandInput,
  place: CallPlace,
  lookups: AuthorizationLookups,
) {
  const tags = Object.fromEntries((input.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
  return (input.Resources ?? []).map((id) => {
    const arn = ec2ArnOfId(place, id);
    const context = { ...requestTags(tags), ...resourceTags(lookups.tagsOf(arn), 'ec2') };
    return { action: 'ec2:CreateTags', resource: arn, context };
  });
}

function terminateInstances(
  input: TerminateInstancesCommandInput,
  place: CallPlace,
  lookups: AuthorizationLookups,
): Authorization[] {
  return (input.InstanceIds ?? []).flatMap((id) => {
    const arn = ec2Arn(place, 'instance', id);
    const tags = lookups.tagsOf(arn);
    if (tags === undefined) return [];
    return [
      { action: 'ec2:TerminateInstances', resource: arn, context: resourceTags(tags, 'ec2') },
    ];
  });
}

type Ec2Operation = (
  input: never,
  place: CallPlace,
  lookups: AuthorizationLookups,
) => Authorization[];

/** The EC2 operations that touch resources; Describe* and the rest name none (`*`). */
export const EC2_AUTHORIZATIONS: Readonly<Record<string, Ec2Operation>> = {
  CreateFleet: createFleet,
  CreateLaunchTemplate: createLaunchTemplate,
  CreateTags: createTags,
  TerminateInstances: terminateInstances,
};
