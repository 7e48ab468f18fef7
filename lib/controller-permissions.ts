/**
 * What the controller may do in EC2 and IAM, and nothing more (aws/karpenter-provider-aws
 * v1.14.1: the controller policies of website/content/en/docs/getting-started/
 * getting-started-with-karpenter/cloudformation.yaml, scoped the same way). Creating
 * fleets, instances, volumes, network interfaces and launch templates requires the cluster tag
 * and Nodesmith's own tag (`nodesmith.io/cluster`) in the request; terminating instances and
 * deleting launch templates requires both on the resource; tags may only be written while
 * creating. Karpenter's instances and those of managed node groups carry the cluster tag but
 * never Nodesmith's, so no statement reaches them. The one exception is adoption, when it is
 * on: the controller may add Nodesmith's tag, and no other, to instances carrying Karpenter's
 * NodePool tag. Instance profiles are made under Nodesmith's path, tagged, for the one node
 * role it may pass, and only to EC2; they are changed and deleted only while they carry the
 * cluster's tag, and read by their path-less name before they exist. Describe and pricing calls have no resource-level permissions in IAM, so they
 * name no resource.
 */
import { type Stack, Token, Validations } from 'aws-cdk-lib';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';

export interface ControllerPermissionsProps {
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  /** Karpenter's running nodes are adopted: the controller may tag their instances as its own. */
  readonly adoptKarpenterNodes?: boolean;
}

/** The tag every resource Nodesmith creates carries (functions/adapters/ec2/tags.ts). */
export function clusterTag(clusterName: string): string {
  return `kubernetes.io/cluster/${clusterName}`;
}

/** Nodesmith's own tag, valued with the cluster's name (functions/adapters/ec2/tags.ts). */
export const OWNERSHIP_TAG = 'nodesmith.io/cluster';

/** The cluster tag and Nodesmith's own, as a condition on the request or on the resource. */
interface Ownership {
  readonly clusterTag: string;
  readonly clusterName: string;
}

function owned(kind: 'RequestTag' | 'ResourceTag', { clusterTag, clusterName }: Ownership) {
  return {
    [`aws:${kind}/${clusterTag}`]: 'owned',
    [`aws:${kind}/${OWNERSHIP_TAG}`]: clusterName,
  };
}

/** What a launch creates, each tagged for the cluster in the request. */
const CREATED_RESOURCES = ['fleet', 'instance', 'volume', 'network-interface', 'launch-template'];

/** Where ARNs point: the stack's own tokens, or their text in a cdk-nag finding. */
interface Place {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
}

function placeOf(stack: Stack): Place {
  return { partition: stack.partition, region: stack.region, account: stack.account };
}

/** How cdk-nag prints the same ARNs in its finding ids. */
function nagPlace(stack: Stack): Place {
  const text = (value: string, pseudo: string) => (Token.isUnresolved(value) ? pseudo : value);
  return {
    partition: '<AWS::Partition>',
    region: text(stack.region, '<AWS::Region>'),
    account: text(stack.account, '<AWS::AccountId>'),
  };
}

function ec2Arns(place: Place, types: readonly string[]): string[] {
  return types.map((type) => `arn:${place.partition}:ec2:${place.region}:*:${type}/*`);
}

/**
 * Launch inputs EC2 lets any launch use: public images and their snapshots, subnets, groups,
 * and the placement group a class selects (Karpenter's `AllowScopedEC2InstanceAccessActions`).
 */
const LAUNCH_INPUTS = [
  'security-group',
  'subnet',
  'capacity-reservation',
  'placement-group',
  'spot-instances-request',
];

function launchInputArns(place: Place): string[] {
  return [
    `arn:${place.partition}:ec2:${place.region}::image/*`,
    `arn:${place.partition}:ec2:${place.region}::snapshot/*`,
    ...ec2Arns(place, LAUNCH_INPUTS),
  ];
}

function instanceProfileArn(place: Place): string {
  return `arn:${place.partition}:iam::${place.account}:instance-profile/nodesmith/*`;
}

/**
 * A profile by its name alone, `<cluster>_<hash>` (functions/adapters/ec2/instance-profiles.ts):
 * IAM authorizes a read of a profile it does not hold yet on `instance-profile/<name>`, with no
 * path, so the provisioner's first GetInstanceProfile, which must answer NoSuchEntity before
 * the profile is created under Nodesmith's path, is refused without it.
 */
function profileByNameArn(place: Place, clusterName: string): string {
  return `arn:${place.partition}:iam::${place.account}:instance-profile/${clusterName}_*`;
}

function amiParameterArn(place: Place): string {
  return `arn:${place.partition}:ssm:${place.region}::parameter/aws/service/*`;
}

function launchStatements(place: Place, ownership: Ownership): PolicyStatement[] {
  const tag = ownership.clusterTag;
  return [
    new PolicyStatement({
      sid: 'LaunchFromSelectedImagesSubnetsAndGroups',
      actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
      // A spot fleet's requests are not tagged; the instances they make must be.
      resources: launchInputArns(place),
    }),
    new PolicyStatement({
      sid: 'LaunchFromOwnLaunchTemplates',
      actions: ['ec2:RunInstances', 'ec2:CreateFleet'],
      resources: ec2Arns(place, ['launch-template']),
      conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: 'owned' } },
    }),
    new PolicyStatement({
      sid: 'CreateOnlyTaggedForTheCluster',
      actions: ['ec2:RunInstances', 'ec2:CreateFleet', 'ec2:CreateLaunchTemplate'],
      resources: ec2Arns(place, CREATED_RESOURCES),
      conditions: {
        StringEquals: owned('RequestTag', ownership),
        StringLike: { 'aws:RequestTag/karpenter.k8s.aws/ec2nodeclass': '*' },
      },
    }),
    new PolicyStatement({
      sid: 'TagOnlyWhileCreating',
      actions: ['ec2:CreateTags'],
      resources: ec2Arns(place, CREATED_RESOURCES),
      conditions: {
        StringEquals: {
          ...owned('RequestTag', ownership),
          'ec2:CreateAction': ['RunInstances', 'CreateFleet', 'CreateLaunchTemplate'],
        },
      },
    }),
    new PolicyStatement({
      sid: 'TerminateOnlyTheClustersOwn',
      actions: ['ec2:TerminateInstances', 'ec2:DeleteLaunchTemplate'],
      resources: ec2Arns(place, ['instance', 'launch-template']),
      conditions: { StringEquals: owned('ResourceTag', ownership) },
    }),
  ];
}

/**
 * Adoption (and the instances of claims written before Nodesmith had its own tag, which carry
 * the same keys as Karpenter's): Nodesmith's tag, and no other key, may be added to instances
 * carrying the cluster tag and Karpenter's NodePool tag. Nothing else of theirs can change:
 * terminating still needs the tag this statement is the only way to add.
 */
function adoptionStatement(place: Place, ownership: Ownership): PolicyStatement {
  return new PolicyStatement({
    sid: 'AdoptKarpenterInstances',
    actions: ['ec2:CreateTags'],
    resources: ec2Arns(place, ['instance']),
    conditions: {
      StringEquals: {
        [`aws:ResourceTag/${ownership.clusterTag}`]: 'owned',
        [`aws:RequestTag/${OWNERSHIP_TAG}`]: ownership.clusterName,
      },
      StringLike: { 'aws:ResourceTag/karpenter.sh/nodepool': '*' },
      'ForAllValues:StringEquals': { 'aws:TagKeys': [OWNERSHIP_TAG] },
    },
  });
}

function readStatements(place: Place): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: 'DescribeInTheRegion',
      actions: [
        'ec2:DescribeCapacityReservations',
        'ec2:DescribeImages',
        'ec2:DescribeInstanceStatus',
        'ec2:DescribeInstances',
        'ec2:DescribeInstanceTypeOfferings',
        'ec2:DescribeInstanceTypes',
        'ec2:DescribeLaunchTemplates',
        'ec2:DescribePlacementGroups',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeSpotPriceHistory',
        'ec2:DescribeSubnets',
      ],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:RequestedRegion': place.region } },
    }),
    new PolicyStatement({
      sid: 'ReadPublicAmiParameters',
      actions: ['ssm:GetParameter'],
      resources: [amiParameterArn(place)],
    }),
    new PolicyStatement({
      sid: 'ReadPrices',
      actions: ['pricing:GetProducts'],
      resources: ['*'],
    }),
  ];
}

function instanceProfileStatements(place: Place, ownership: Ownership, nodeRoleArn: string) {
  const profiles = instanceProfileArn(place);
  const tag = ownership.clusterTag;
  return [
    new PolicyStatement({
      sid: 'PassOnlyTheNodeRoleToEc2',
      actions: ['iam:PassRole'],
      resources: [nodeRoleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
    }),
    new PolicyStatement({
      sid: 'CreateTaggedInstanceProfiles',
      actions: ['iam:CreateInstanceProfile', 'iam:TagInstanceProfile'],
      resources: [profiles],
      conditions: { StringEquals: { [`aws:RequestTag/${tag}`]: 'owned' } },
    }),
    new PolicyStatement({
      sid: 'ManageOwnInstanceProfiles',
      actions: [
        'iam:AddRoleToInstanceProfile',
        'iam:RemoveRoleFromInstanceProfile',
        'iam:DeleteInstanceProfile',
      ],
      resources: [profiles],
      conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: 'owned' } },
    }),
    new PolicyStatement({
      sid: 'ReadOwnInstanceProfiles',
      actions: ['iam:GetInstanceProfile', 'iam:ListInstanceProfileTags'],
      resources: [profiles],
    }),
    new PolicyStatement({
      sid: 'ReadInstanceProfilesNotYetCreated',
      actions: ['iam:GetInstanceProfile'],
      resources: [profileByNameArn(place, ownership.clusterName)],
    }),
    // Listing names every profile of the account under the path; IAM scopes it no narrower.
    new PolicyStatement({
      sid: 'ListInstanceProfiles',
      actions: ['iam:ListInstanceProfiles'],
      resources: ['*'],
    }),
  ];
}

/**
 * EC2 makes the spot service-linked role on an account's first spot launch, as the caller; a new
 * account has none, and without this its first spot launch fails. This role and no other.
 */
function spotServiceLinkedRoleStatement(place: Place): PolicyStatement {
  return new PolicyStatement({
    sid: 'CreateTheSpotServiceLinkedRole',
    actions: ['iam:CreateServiceLinkedRole'],
    resources: [
      `arn:${place.partition}:iam::${place.account}:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot`,
    ],
    conditions: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
  });
}

/**
 * Grants the controller its EC2, IAM, SSM and Pricing permissions, and acknowledges, on its
 * role, the wildcards cdk-nag finds in them, each with the reason it cannot be narrower.
 */
export function grantControllerPermissions(
  role: IRole,
  stack: Stack,
  props: ControllerPermissionsProps,
): void {
  const tag = clusterTag(props.clusterName);
  const ownership = { clusterTag: tag, clusterName: props.clusterName };
  const place = placeOf(stack);
  for (const statement of [
    ...launchStatements(place, ownership),
    ...(props.adoptKarpenterNodes === true ? [adoptionStatement(place, ownership)] : []),
    ...readStatements(place),
    ...instanceProfileStatements(place, ownership, props.nodeRoleArn),
    spotServiceLinkedRoleStatement(place),
  ]) {
    role.addToPrincipalPolicy(statement);
  }
  acknowledgeWildcards(role, nagPlace(stack), props.clusterName);
}

function acknowledgeWildcards(role: IRole, place: Place, clusterName: string): void {
  const acknowledge = (resource: string, reason: string) =>
    Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
  for (const resource of launchInputArns(place)) {
    acknowledge(
      resource,
      'images, snapshots, subnets, security groups and capacity reservations are chosen by the EC2NodeClass selectors at run time; EC2 launches only with instances and templates tagged for the cluster',
    );
  }
  for (const resource of ec2Arns(place, CREATED_RESOURCES)) {
    acknowledge(
      resource,
      'resources created by a launch have no ARN before they exist; the statements require the cluster ownership tag in the request, or on the resource to terminate',
    );
  }
  acknowledge(
    '*',
    'EC2 Describe*, pricing:GetProducts and iam:ListInstanceProfiles support no narrower resource; Describe is limited to the stack region',
  );
  acknowledge(
    instanceProfileArn(place),
    "instance profiles are named per EC2NodeClass at run time; they are confined to Nodesmith's path and to profiles tagged for the cluster",
  );
  acknowledge(
    profileByNameArn(place, clusterName),
    "IAM reads a profile it does not hold yet by its path-less name; the provisioner's first read must find none before it creates the profile, and only reads are granted there",
  );
  acknowledge(
    amiParameterArn(place),
    "AMI aliases resolve through AWS's public SSM parameters, whose names depend on the family, version and architecture",
  );
}
