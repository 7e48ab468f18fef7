/**
 * The synthesized stack's roles, enforced on what the functions really send: the EC2 and IAM
 * adapters' own requests (launch templates, fleets with the tags the adapter writes, instance
 * profiles), evaluated as AWS authorizes them, and the denials answered as each service answers
 * them. docs/design.md §8.1: the controller never touches an instance Nodesmith did not launch.
 */
import type { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { toCreateFleetInput } from '../../../functions/adapters/ec2/fleet-request.ts';
import { IamInstanceProfileProvisioner } from '../../../functions/adapters/ec2/iam-instance-profile-provisioner.ts';
import {
  launchTemplateConfig,
  launchTemplateName,
} from '../../../functions/adapters/ec2/launch-template-config.ts';
import { LaunchTemplates } from '../../../functions/adapters/ec2/launch-templates.ts';
import {
  clusterTagKey,
  instanceProfileTags,
  launchTags,
} from '../../../functions/adapters/ec2/tags.ts';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';
import {
  AwsError,
  type AwsOperation,
  type AwsService,
} from '../../../simulator/aws/aws-service.ts';
import type {
  AuthorizationLookups,
  StoredInstanceProfile,
  StoredLaunchTemplate,
} from '../../../simulator/iam/authorization-lookups.ts';
import type { Tags } from '../../../simulator/iam/authorization-request.ts';
import { makeAuthorizer } from '../../../simulator/iam/authorizer.ts';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import {
  type CloudFormationTemplate,
  templatePolicies,
} from '../../../simulator/iam/template-policies.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { buildStack, EKS_CONTEXT, NODE_ROLE } from '../../lib/stack-fixture.ts';

const ACCOUNT = simulatedAccount();
const TEMPLATE = buildStack(EKS_CONTEXT).template.toJSON() as CloudFormationTemplate;
const POLICIES = templatePolicies(TEMPLATE, ACCOUNT);
const EC2_ARN = 'arn:aws:ec2:us-east-1:111122223333';

const NODE_CLASS: LaunchableNodeClass = {
  metadata: { name: 'default' },
  spec: { role: 'KarpenterNodeRole-shop', tags: { team: 'shop' } },
};
const PROFILE = 'shop_1234567890';
const PROFILE_ARN = `arn:aws:iam::111122223333:instance-profile/nodesmith/${PROFILE}`;

/** What the simulated account holds, as the services holding it would answer the authorizer. */
class HeldResources implements AuthorizationLookups {
  readonly tags = new Map<string, Tags>();
  readonly templates = new Map<string, StoredLaunchTemplate>();
  readonly profiles = new Map<string, StoredInstanceProfile>();
  readonly placementGroups = new Map<string, string>();

  tagsOf(arn: string) {
    return this.tags.get(arn);
  }
  launchTemplate(spec: { LaunchTemplateName?: string }) {
    return this.templates.get(spec.LaunchTemplateName ?? '');
  }
  instanceProfile(name: string) {
    return this.profiles.get(name);
  }
  placementGroupName(id: string | undefined) {
    return id === undefined ? undefined : this.placementGroups.get(id);
  }
  roleArn(name: string) {
    return name === 'KarpenterNodeRole-shop' ? NODE_ROLE : undefined;
  }
  secretArn() {
    return undefined;
  }
}

function service(actionPrefix: string): AwsService {
  // The authorizer reads the action prefix alone; nothing here is decoded, invoked or encoded.
  return { signingName: actionPrefix, actionPrefix } as AwsService;
}

function roleOf(fn: string): string {
  return [...POLICIES.roleOfFunction].find(([id]) => id.startsWith(fn))?.[1] ?? '';
}

function world(deny?: readonly string[]) {
  const held = new HeldResources();
  const authorizer = makeAuthorizer(POLICIES.policiesByRole, held, {
    account: ACCOUNT,
    ...(deny === undefined ? {} : { deny }),
  });
  const authorize = (fn: string, prefix: string, operation: AwsOperation, region = 'us-east-1') =>
    authorizer(
      { accessKeyId: `AKIA${fn.toUpperCase()}`, region, functionName: fn, roleArn: roleOf(fn) },
      service(prefix),
      operation,
    );
  /** A client whose every command is authorized first, then answered by `answer`. */
  const client = (
    fn: string,
    prefix: string,
    answer: (name: string, input: Record<string, unknown>) => unknown,
  ) => ({
    async send(command: { input: Record<string, unknown> }) {
      const name = command.constructor.name.replace(/Command$/, '');
      const denied = authorize(fn, prefix, { name, input: command.input });
      if (denied !== undefined) throw denied;
      return answer(name, command.input);
    },
  });
  return { held, authorize, client };
}

/** The controller's launch template for the class, created through the adapter; its name. */
async function ensureLaunchTemplate(
  { held, client }: ReturnType<typeof world>,
  placementGroup?: PlacementGroup,
): Promise<string> {
  const config = launchTemplateConfig({
    clusterName: 'shop',
    nodeClass: NODE_CLASS,
    resolved: {
      name: 'default',
      amiFamily: 'AL2023',
      subnets: [],
      securityGroups: [{ id: 'sg-0a1b' }],
      amis: [],
      instanceProfile: PROFILE,
      capacityReservations: [],
      ...(placementGroup === undefined ? {} : { placementGroup }),
    },
    imageId: 'ami-0123456789abcdef0',
    userData: 'apiVersion: node.eks.aws/v1alpha1',
  });
  const ec2 = client('Controller', 'ec2', (name, input) => {
    if (name === 'DescribeLaunchTemplates') return { LaunchTemplates: [] };
    const created = input as {
      LaunchTemplateName: string;
      LaunchTemplateData: StoredLaunchTemplate['data'];
      TagSpecifications: { Tags: { Key: string; Value: string }[] }[];
    };
    const tags = Object.fromEntries(
      (created.TagSpecifications[0]?.Tags ?? []).map((t) => [t.Key, t.Value]),
    );
    held.templates.set(created.LaunchTemplateName, {
      arn: `${EC2_ARN}:launch-template/lt-0abc`,
      tags,
      data: created.LaunchTemplateData,
    });
    return {};
  });
  const templates = new LaunchTemplates({
    ec2: ec2 as unknown as EC2Client,
    clusterName: 'shop',
    now: () => new Date(0),
  });
  await templates.ensure(config);
  held.profiles.set(PROFILE, { arn: PROFILE_ARN, roleArns: [NODE_ROLE] });
  return launchTemplateName('shop', config);
}

function fleetInput(launchTemplateName: string, capacityType: 'spot' | 'on-demand' = 'spot') {
  const claim = { ...aNewNodeClaim({ name: 'default-abc12' }), version: 1 };
  return toCreateFleetInput({
    claimName: claim.name,
    capacityType,
    prioritized: false,
    tags: launchTags('shop', claim, NODE_CLASS),
    templates: [
      {
        launchTemplateName,
        group: {
          imageId: 'ami-0123456789abcdef0',
          maxPods: 29,
          efaCount: 0,
          overrides: [
            { instanceType: 'm5.large', subnetId: 'subnet-0a1b', zone: 'us-east-1a', price: 0.04 },
          ],
        },
      },
    ],
  }) as unknown as Record<string, unknown>;
}

const NODESMITHS = {
  [clusterTagKey('shop')]: 'owned',
  'nodesmith.io/cluster': 'shop',
  'karpenter.sh/nodeclaim': 'default-abc12',
};
const KARPENTERS = {
  [clusterTagKey('shop')]: 'owned',
  'karpenter.sh/nodepool': 'default',
  'karpenter.sh/nodeclaim': 'default-xyz89',
};

describe('the controller role on an EKS cluster', () => {
  it('creates its launch template and launches spot and on-demand fleets with the tags the adapter writes', async () => {
    // Prepare
    const account = world();
    const name = await ensureLaunchTemplate(account);

    // Act
    const spot = account.authorize('Controller', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name),
    });
    const onDemand = account.authorize('Controller', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name, 'on-demand'),
    });

    // Assess
    expect(account.held.templates.get(name)?.tags).toMatchObject({
      [clusterTagKey('shop')]: 'owned',
      'nodesmith.io/cluster': 'shop',
    });
    expect({ spot, onDemand }).toEqual({ spot: undefined, onDemand: undefined });
  });

  it('launches into the placement group its class selects', async () => {
    // Prepare
    const account = world();
    const group = { id: 'pg-0123456789abcdef0', name: 'training', strategy: 'cluster' } as const;
    account.held.placementGroups.set(group.id, group.name);
    account.held.tags.set(`${EC2_ARN}:placement-group/training`, {});
    const name = await ensureLaunchTemplate(account, group);

    // Act
    const denied = account.authorize('Controller', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name),
    });

    // Assess
    expect(account.held.templates.get(name)?.data.Placement).toEqual({
      GroupId: 'pg-0123456789abcdef0',
    });
    expect(denied).toBeUndefined();
  });

  it('cannot launch from a launch template that is not tagged for the cluster', async () => {
    // Prepare
    const account = world();
    const name = await ensureLaunchTemplate(account);
    const template = account.held.templates.get(name) as StoredLaunchTemplate;
    account.held.templates.set(name, { ...template, tags: { team: 'shop' } });

    // Act
    const denied = account.authorize('Controller', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name),
    });

    // Assess
    expect(denied?.message).toContain(
      `on resource: ${EC2_ARN}:launch-template/lt-0abc because no identity-based policy allows the ec2:CreateFleet action`,
    );
  });

  it('cannot launch with a fleet request whose instances miss the cluster tags', async () => {
    // Prepare
    const account = world();
    const name = await ensureLaunchTemplate(account);
    const input = fleetInput(name) as {
      TagSpecifications: { ResourceType: string; Tags: unknown[] }[];
    };
    const untagged = {
      ...input,
      TagSpecifications: input.TagSpecifications.map((spec) => ({
        ...spec,
        Tags: [{ Key: 'team', Value: 'shop' }],
      })),
    };

    // Act
    const denied = account.authorize('Controller', 'ec2', { name: 'CreateFleet', input: untagged });

    // Assess
    expect(denied?.message).toMatch(
      /not authorized to perform: ec2:CreateFleet on resource: arn:aws:ec2:us-east-1:111122223333:fleet\/\*/,
    );
  });

  it("terminates an instance carrying Nodesmith's tag, and refuses one Karpenter launched", () => {
    // Prepare
    const account = world();
    account.held.tags.set(`${EC2_ARN}:instance/i-0nodesmith`, NODESMITHS);
    account.held.tags.set(`${EC2_ARN}:instance/i-0karpenter`, KARPENTERS);

    // Act
    const own = account.authorize('Controller', 'ec2', {
      name: 'TerminateInstances',
      input: { InstanceIds: ['i-0nodesmith'] },
    });
    const theirs = account.authorize('Controller', 'ec2', {
      name: 'TerminateInstances',
      input: { InstanceIds: ['i-0karpenter'] },
    });

    // Assess
    expect(own).toBeUndefined();
    expect(theirs).toBeInstanceOf(AwsError);
    expect({ code: theirs?.code, status: theirs?.status }).toEqual({
      code: 'UnauthorizedOperation',
      status: 403,
    });
    expect(theirs?.message).toMatch(
      new RegExp(
        '^You are not authorized to perform this operation\\. User: arn:aws:sts::111122223333:assumed-role/Nodesmith-ControllerRole\\w+/Controller ' +
          'is not authorized to perform: ec2:TerminateInstances on resource: arn:aws:ec2:us-east-1:111122223333:instance/i-0karpenter ' +
          'because no identity-based policy allows the ec2:TerminateInstances action\\. Encoded authorization failure message: [\\w-]+$',
      ),
    );
  });

  it('leaves an instance EC2 does not hold to EC2, which answers it is not found', () => {
    // Act
    const unknown = world().authorize('Controller', 'ec2', {
      name: 'TerminateInstances',
      input: { InstanceIds: ['i-0gone'] },
    });

    // Assess
    expect(unknown).toBeUndefined();
  });

  it('adds only its own tag to Karpenter instances when adopting is on, and no tag when it is off', () => {
    // Prepare
    const adopting = templatePolicies(
      buildStack({
        ...EKS_CONTEXT,
        adoptKarpenterNodes: true,
      }).template.toJSON() as CloudFormationTemplate,
      ACCOUNT,
    );
    const held = new HeldResources();
    held.tags.set(`${EC2_ARN}:instance/i-0karpenter`, KARPENTERS);
    const caller = {
      accessKeyId: 'AKIACONTROLLER',
      region: 'us-east-1',
      functionName: 'Controller',
    };
    const tagging = (policies: typeof POLICIES, tags: Record<string, string>) =>
      makeAuthorizer(policies.policiesByRole, held, { account: ACCOUNT })(
        {
          ...caller,
          roleArn: [...policies.roleOfFunction].find(([id]) =>
            id.startsWith('Controller'),
          )?.[1] as string,
        },
        service('ec2'),
        {
          name: 'CreateTags',
          input: {
            Resources: ['i-0karpenter'],
            Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
          },
        },
      );

    // Act
    const adopt = tagging(adopting, { 'nodesmith.io/cluster': 'shop' });
    const more = tagging(adopting, {
      'nodesmith.io/cluster': 'shop',
      'nodesmith.io/nodepool': 'default',
    });
    const off = tagging(POLICIES, { 'nodesmith.io/cluster': 'shop' });

    // Assess
    expect(adopt).toBeUndefined();
    expect(more?.code).toBe('UnauthorizedOperation');
    expect(off?.code).toBe('UnauthorizedOperation');
  });

  it('describes, reads AMI parameters and prices, the cluster, and wakes and publishes, in its own region', () => {
    // Prepare
    const account = world();
    const bus =
      TEMPLATE.Resources[
        Object.keys(TEMPLATE.Resources).find((id) => id.startsWith('Decisions')) as string
      ]?.Properties?.Name;
    const queue = `https://sqs.us-east-1.amazonaws.com/111122223333/Nodesmith-${Object.keys(TEMPLATE.Resources).find((id) => id.startsWith('QueuesWork4'))}`;
    const calls: [string, AwsOperation][] = [
      ['ec2', { name: 'DescribeInstanceTypes', input: {} }],
      ['ec2', { name: 'DescribeSubnets', input: {} }],
      ['ec2', { name: 'DescribePlacementGroups', input: { GroupNames: ['training'] } }],
      [
        'ec2',
        { name: 'DescribeLaunchTemplates', input: { LaunchTemplateNames: ['nodesmith/shop/0'] } },
      ],
      [
        'ssm',
        {
          name: 'GetParameter',
          input: {
            Name: '/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id',
          },
        },
      ],
      ['pricing', { name: 'GetProducts', input: { ServiceCode: 'AmazonEC2' } }],
      ['eks', { name: 'DescribeCluster', input: { name: 'shop' } }],
      ['sqs', { name: 'SendMessage', input: { QueueUrl: queue, MessageBody: '{}' } }],
      [
        'events',
        {
          name: 'PutEvents',
          input: { Entries: [{ EventBusName: bus, Source: 'nodesmith', DetailType: 'Launched' }] },
        },
      ],
    ];

    // Act
    const denied = calls.map(([prefix, operation]) =>
      account.authorize('Controller', prefix, operation),
    );
    const elsewhere = account.authorize(
      'Controller',
      'ec2',
      { name: 'DescribeInstanceTypes', input: {} },
      'eu-west-1',
    );

    // Assess
    expect(denied).toEqual(calls.map(() => undefined));
    expect(elsewhere?.message).toContain(
      'not authorized to perform: ec2:DescribeInstanceTypes because no identity-based policy allows',
    );
  });

  it("reads, creates and fills the class's instance profile through the provisioner once the profile exists", async () => {
    // Prepare
    const account = world();
    account.held.profiles.set(PROFILE, { arn: PROFILE_ARN, roleArns: [] });
    account.held.tags.set(
      PROFILE_ARN,
      instanceProfileTags({ name: 'shop', region: 'us-east-1' }, NODE_CLASS),
    );
    const sent: string[] = [];
    const iam = account.client('Controller', 'iam', (name) => {
      sent.push(name);
      return name === 'GetInstanceProfile' ? { InstanceProfile: { Roles: [] } } : {};
    });

    // Act
    await new IamInstanceProfileProvisioner(iam).ensure({
      name: PROFILE,
      role: 'KarpenterNodeRole-shop',
      tags: {},
    });

    // Assess
    expect(sent).toEqual(['GetInstanceProfile', 'AddRoleToInstanceProfile']);
  });

  it("creates the class's instance profile through the provisioner when IAM holds none yet", async () => {
    // Prepare
    const account = world();
    const sent: string[] = [];
    const iam = account.client('Controller', 'iam', (name, input) => {
      sent.push(name);
      const held = account.held.profiles.get(PROFILE);
      if (name === 'GetInstanceProfile' && held === undefined)
        throw new AwsError('NoSuchEntity', `Instance Profile ${PROFILE} cannot be found.`, 404);
      if (name === 'CreateInstanceProfile') {
        const { Path, Tags } = input as { Path: string; Tags: { Key: string; Value: string }[] };
        const arn = `arn:aws:iam::111122223333:instance-profile${Path}${PROFILE}`;
        account.held.profiles.set(PROFILE, { arn, roleArns: [] });
        account.held.tags.set(arn, Object.fromEntries(Tags.map((t) => [t.Key, t.Value])));
      }
      return name === 'GetInstanceProfile' ? { InstanceProfile: { Roles: [] } } : {};
    });
    const tags = instanceProfileTags({ name: 'shop', region: 'us-east-1' }, NODE_CLASS);

    // Act
    await new IamInstanceProfileProvisioner(iam).ensure({
      name: PROFILE,
      role: 'KarpenterNodeRole-shop',
      tags,
    });

    // Assess
    expect(sent).toEqual([
      'GetInstanceProfile',
      'CreateInstanceProfile',
      'AddRoleToInstanceProfile',
    ]);
    expect(account.held.profiles.get(PROFILE)?.arn).toBe(PROFILE_ARN);
  });

  it('may pass the node role to EC2 alone', () => {
    // Prepare
    const account = world();
    account.held.profiles.set(PROFILE, { arn: PROFILE_ARN, roleArns: [] });
    account.held.tags.set(PROFILE_ARN, { [clusterTagKey('shop')]: 'owned' });

    // Act
    const node = account.authorize('Controller', 'iam', {
      name: 'AddRoleToInstanceProfile',
      input: { InstanceProfileName: PROFILE, RoleName: 'KarpenterNodeRole-shop' },
    });
    const admin = account.authorize('Controller', 'iam', {
      name: 'AddRoleToInstanceProfile',
      input: { InstanceProfileName: PROFILE, RoleName: 'Admin' },
    });

    // Assess
    expect(node).toBeUndefined();
    expect({ code: admin?.code, status: admin?.status }).toEqual({
      code: 'AccessDenied',
      status: 403,
    });
    expect(admin?.message).toMatch(
      /not authorized to perform: iam:PassRole on resource: arn:aws:iam::111122223333:role\/Admin because/,
    );
  });
});

describe('the other roles', () => {
  it('the interruption role cannot launch', async () => {
    // Prepare
    const account = world();
    const name = await ensureLaunchTemplate(account);

    // Act
    const denied = account.authorize('Interruption', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name),
    });

    // Assess
    expect(denied?.code).toBe('UnauthorizedOperation');
    expect(denied?.message).toMatch(
      /assumed-role\/Nodesmith-InterruptionRole\w+\/Interruption is not authorized to perform: ec2:CreateFleet on resource/,
    );
  });

  it("the admission wake reads its token, and another secret is answered as Secrets Manager's AccessDeniedException", () => {
    // Prepare
    const account = world();
    const token = POLICIES.resources.ref(
      Object.keys(TEMPLATE.Resources).find((id) => id.startsWith('FunctionsWakeToken')) as string,
    );
    const other = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:other-AbCdEf';

    // Act
    const own = account.authorize('WakeWebhook', 'secretsmanager', {
      name: 'GetSecretValue',
      input: { SecretId: token },
    });
    const denied = account.authorize('WakeWebhook', 'secretsmanager', {
      name: 'GetSecretValue',
      input: { SecretId: other },
    });

    // Assess
    expect(own).toBeUndefined();
    expect({ code: denied?.code, status: denied?.status }).toEqual({
      code: 'AccessDeniedException',
      status: 400,
    });
    expect(denied?.message).toMatch(
      new RegExp(
        `^User: arn:aws:sts::111122223333:assumed-role/Nodesmith-WakeWebhookRole\\w+/WakeWebhook is not authorized to perform: secretsmanager:GetSecretValue on resource: ${other} because no identity-based policy allows the secretsmanager:GetSecretValue action$`,
      ),
    );
  });

  it("passes the world's own calls, signed with no role's key", () => {
    // Act
    const setup = makeAuthorizer(POLICIES.policiesByRole, new HeldResources(), {
      account: ACCOUNT,
    })({ accessKeyId: 'AKIAWORLD', region: 'us-east-1' }, service('ec2'), {
      name: 'TerminateInstances',
      input: { InstanceIds: ['i-0karpenter'] },
    });

    // Assess
    expect(setup).toBeUndefined();
  });
});

describe('actions denied for a run', () => {
  it('takes ec2:CreateFleet from the controller and leaves it everything else', async () => {
    // Prepare
    const account = world(['ec2:CreateFleet']);
    const name = await ensureLaunchTemplate(account);
    account.held.tags.set(`${EC2_ARN}:instance/i-0nodesmith`, NODESMITHS);

    // Act
    const launch = account.authorize('Controller', 'ec2', {
      name: 'CreateFleet',
      input: fleetInput(name),
    });
    const terminate = account.authorize('Controller', 'ec2', {
      name: 'TerminateInstances',
      input: { InstanceIds: ['i-0nodesmith'] },
    });

    // Assess
    expect(launch?.message).toMatch(
      /not authorized to perform: ec2:CreateFleet on resource: .* because no identity-based policy allows the ec2:CreateFleet action/,
    );
    expect(terminate).toBeUndefined();
  });
});
