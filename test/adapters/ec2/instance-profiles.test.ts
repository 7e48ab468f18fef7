import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  GetInstanceProfileCommand,
  type GetInstanceProfileCommandOutput,
  IAMClient,
  IAMServiceException,
} from '@aws-sdk/client-iam';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import {
  IamInstanceProfileProvisioner,
  INSTANCE_PROFILE_PATH,
} from '../../../functions/adapters/ec2/iam-instance-profile-provisioner.ts';
import type { InstanceProfileRequest } from '../../../functions/adapters/ec2/instance-profiles.ts';
import { InvalidConfigError, ThrottledError } from '../../../functions/ports/errors.ts';
import {
  aClock,
  aNodeClass,
  CLUSTER,
  MINUTE,
  mockedClients,
  SECOND,
  stubDiscovery,
} from './support.ts';

const PROFILE = 'prod_18439511194865443293';
const ROLE = 'KarpenterNodeRole-prod';

const REQUEST: InstanceProfileRequest = {
  name: PROFILE,
  role: ROLE,
  tags: {
    'kubernetes.io/cluster/prod': 'owned',
    'karpenter.k8s.aws/ec2nodeclass': 'default',
    'topology.kubernetes.io/region': 'us-west-2',
  },
};

/** The request's tags as IAM is sent them: sorted by key. */
const SENT_TAGS = [
  { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
  { Key: 'kubernetes.io/cluster/prod', Value: 'owned' },
  { Key: 'topology.kubernetes.io/region', Value: 'us-west-2' },
];

/** An IAM error as the SDK throws it: the modeled exception's name, the wire code in `Code`. */
function iamError(code: string, name = code): IAMServiceException {
  const error = new IAMServiceException({
    name,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message: `${code} from iam`,
  });
  return Object.assign(error, { Code: code });
}

const NO_SUCH_ENTITY = () => iamError('NoSuchEntity', 'NoSuchEntityException');

/** GetInstanceProfile's answer for the profile holding `roles`. */
function aProfile(roles: readonly string[]): GetInstanceProfileCommandOutput {
  return {
    $metadata: {},
    InstanceProfile: {
      Path: INSTANCE_PROFILE_PATH,
      InstanceProfileName: PROFILE,
      InstanceProfileId: 'AIPAEXAMPLEPROFILEID',
      Arn: `arn:aws:iam::111122223333:instance-profile/nodesmith/${PROFILE}`,
      CreateDate: new Date('2024-08-10T09:00:00.000Z'),
      Roles: roles.map((RoleName) => ({
        Path: '/',
        RoleName,
        RoleId: `AROA${RoleName.length}`,
        Arn: `arn:aws:iam::111122223333:role/${RoleName}`,
        CreateDate: new Date('2024-08-01T00:00:00.000Z'),
      })),
    },
  };
}

function setUp() {
  const iam = new IAMClient({ region: CLUSTER.region });
  const iamMock = mockClient(iam);
  return { iamMock, provisioner: new IamInstanceProfileProvisioner(iam) };
}

/** Every request IAM was sent, in order, as [command, input]. */
function requests(iamMock: ReturnType<typeof setUp>['iamMock']): [string, unknown][] {
  return iamMock.calls().map((call) => [call.args[0].constructor.name, call.args[0].input]);
}

const GET = ['GetInstanceProfileCommand', { InstanceProfileName: PROFILE }];
const ADD = ['AddRoleToInstanceProfileCommand', { InstanceProfileName: PROFILE, RoleName: ROLE }];
const CREATE = [
  'CreateInstanceProfileCommand',
  { InstanceProfileName: PROFILE, Path: '/nodesmith/', Tags: SENT_TAGS },
];

describe('IAM instance profile provisioning', () => {
  it('creates a missing profile under /nodesmith/ with the tags, then adds the role', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).rejects(NO_SUCH_ENTITY());
    iamMock.on(CreateInstanceProfileCommand).resolves(aProfile([]));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET, CREATE, ADD]);
  });

  it('reuses a profile that already holds the role, changing nothing', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).resolves(aProfile([ROLE]));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET]);
  });

  it('gives an empty existing profile the role', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).resolves(aProfile([]));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET, ADD]);
  });

  it('replaces a different role: removes it, then adds the class role', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).resolves(aProfile(['OldNodeRole']));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([
      GET,
      [
        'RemoveRoleFromInstanceProfileCommand',
        { InstanceProfileName: PROFILE, RoleName: 'OldNodeRole' },
      ],
      ADD,
    ]);
  });

  it('adds a role named with a path by its bare name', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).resolves(aProfile([]));
    // Act
    await provisioner.ensure({ ...REQUEST, role: 'nodes/prod/KarpenterNodeRole-prod' });
    // Assess
    expect(requests(iamMock)).toEqual([GET, ADD]);
  });

  it('counts a concurrent create as success and gives that profile the role', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).rejectsOnce(NO_SUCH_ENTITY()).resolves(aProfile([]));
    iamMock
      .on(CreateInstanceProfileCommand)
      .rejects(iamError('EntityAlreadyExists', 'EntityAlreadyExistsException'));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET, CREATE, GET, ADD]);
  });

  it('leaves a concurrently created profile alone when the other creator already added the role', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock
      .on(GetInstanceProfileCommand)
      .rejectsOnce(NO_SUCH_ENTITY())
      .resolves(aProfile([ROLE]));
    iamMock
      .on(CreateInstanceProfileCommand)
      .rejects(iamError('EntityAlreadyExists', 'EntityAlreadyExistsException'));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET, CREATE, GET]);
  });

  it('counts a concurrent add of the same role as success', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock
      .on(GetInstanceProfileCommand)
      .resolvesOnce(aProfile([]))
      .resolves(aProfile([ROLE]));
    iamMock
      .on(AddRoleToInstanceProfileCommand)
      .rejects(iamError('LimitExceeded', 'LimitExceededException'));
    // Act
    await provisioner.ensure(REQUEST);
    // Assess
    expect(requests(iamMock)).toEqual([GET, ADD, GET]);
  });

  it('refuses when a concurrent add put a different role in the profile', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    const limit = iamError('LimitExceeded', 'LimitExceededException');
    iamMock
      .on(GetInstanceProfileCommand)
      .resolvesOnce(aProfile([]))
      .resolves(aProfile(['Other']));
    iamMock.on(AddRoleToInstanceProfileCommand).rejects(limit);
    // Act
    const ensuring = provisioner.ensure(REQUEST);
    // Assess
    await expect(ensuring).rejects.toBe(limit);
  });

  it('turns a denied create into InvalidConfigError naming the permissions to grant', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    const denied = iamError('AccessDenied');
    iamMock.on(GetInstanceProfileCommand).rejects(NO_SUCH_ENTITY());
    iamMock.on(CreateInstanceProfileCommand).rejects(denied);
    // Act
    const error = await provisioner.ensure(REQUEST).catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).message).toBe(
      `creating instance profile ${PROFILE}: access denied; grant iam:CreateInstanceProfile and iam:TagInstanceProfile to the function's role (AccessDenied)`,
    );
    expect((error as InvalidConfigError).cause).toBe(denied);
    expect(requests(iamMock)).toEqual([GET, CREATE]);
  });

  it('names iam:PassRole when adding the role is denied', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    iamMock.on(GetInstanceProfileCommand).resolves(aProfile([]));
    iamMock.on(AddRoleToInstanceProfileCommand).rejects(iamError('AccessDenied'));
    // Act
    const ensuring = provisioner.ensure(REQUEST);
    // Assess
    await expect(ensuring).rejects.toThrow(
      /^adding role KarpenterNodeRole-prod to instance profile prod_\d+: access denied; grant iam:AddRoleToInstanceProfile and iam:PassRole on role KarpenterNodeRole-prod/,
    );
  });

  it('turns IAM throttling into ThrottledError, keeping the cause', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    const throttled = iamError('Throttling');
    iamMock.on(GetInstanceProfileCommand).rejects(throttled);
    // Act
    const error = await provisioner.ensure(REQUEST).catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(ThrottledError);
    expect((error as ThrottledError).message).toBe(
      `getting instance profile ${PROFILE}: throttled (Throttling)`,
    );
    expect((error as ThrottledError).cause).toBe(throttled);
  });

  it('rethrows any other IAM error unchanged', async () => {
    // Prepare
    const { iamMock, provisioner } = setUp();
    const failure = iamError('ServiceFailure', 'ServiceFailureException');
    iamMock.on(GetInstanceProfileCommand).rejects(failure);
    // Act
    const ensuring = provisioner.ensure(REQUEST);
    // Assess
    await expect(ensuring).rejects.toBe(failure);
  });
});

describe('IAM instance profiles through the cloud provider', () => {
  function setUpCloud() {
    const clients = mockedClients();
    const clock = aClock();
    stubDiscovery(clients);
    const { iamMock, provisioner } = setUp();
    const cloud = new Ec2CloudProvider({
      ...clients,
      cluster: CLUSTER,
      now: clock.now,
      instanceProfiles: provisioner,
    });
    return { cloud, clock, iamMock };
  }

  it('creates the profile with the class and ownership tags and resolves to its name', async () => {
    // Prepare
    const { cloud, iamMock } = setUpCloud();
    iamMock.on(GetInstanceProfileCommand).rejects(NO_SUCH_ENTITY());
    // Act
    const resolved = await cloud.resolveNodeClass(aNodeClass({ tags: { team: 'platform' } }));
    // Assess
    expect(resolved.instanceProfile).toBe(PROFILE);
    expect(iamMock.commandCalls(CreateInstanceProfileCommand)[0]?.args[0].input).toEqual({
      InstanceProfileName: PROFILE,
      Path: '/nodesmith/',
      Tags: [
        { Key: 'eks:eks-cluster-name', Value: 'prod' },
        { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
        { Key: 'kubernetes.io/cluster/prod', Value: 'owned' },
        { Key: 'team', Value: 'platform' },
        { Key: 'topology.kubernetes.io/region', Value: 'us-west-2' },
      ],
    });
    expect(iamMock.commandCalls(AddRoleToInstanceProfileCommand)).toHaveLength(1);
  });

  it('provisions the profile once for launches resolving the class at once', async () => {
    // Prepare
    const { cloud, iamMock } = setUpCloud();
    iamMock.on(GetInstanceProfileCommand).rejects(NO_SUCH_ENTITY());
    const nodeClass = aNodeClass();
    // Act
    const resolved = await Promise.all([1, 2, 3].map(() => cloud.resolveNodeClass(nodeClass)));
    // Assess
    expect(resolved.map((r) => r.instanceProfile)).toEqual([PROFILE, PROFILE, PROFILE]);
    expect(iamMock.commandCalls(GetInstanceProfileCommand)).toHaveLength(1);
    expect(iamMock.commandCalls(CreateInstanceProfileCommand)).toHaveLength(1);
    expect(iamMock.commandCalls(AddRoleToInstanceProfileCommand)).toHaveLength(1);
  });

  it('asks IAM again only after 15 minutes, which repairs a profile changed by hand', async () => {
    // Prepare
    const { cloud, clock, iamMock } = setUpCloud();
    iamMock
      .on(GetInstanceProfileCommand)
      .resolvesOnce(aProfile([ROLE]))
      .resolves(aProfile(['ChangedByHand']));
    const nodeClass = aNodeClass();
    // Act
    await cloud.resolveNodeClass(nodeClass);
    clock.advance(15 * MINUTE - SECOND);
    await cloud.resolveNodeClass(nodeClass);
    const within15Minutes = iamMock.calls().length;
    clock.advance(2 * SECOND);
    await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(within15Minutes).toBe(1);
    expect(requests(iamMock)).toEqual([
      GET,
      GET,
      [
        'RemoveRoleFromInstanceProfileCommand',
        { InstanceProfileName: PROFILE, RoleName: 'ChangedByHand' },
      ],
      ADD,
    ]);
  });
});
