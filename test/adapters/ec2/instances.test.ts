import {
  CreateTagsCommand,
  DescribeInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';
import { aClock, CLUSTER, ec2Error, fixture, mockedClients } from './support.ts';

/** The instances of describe-instances.json as the port hands them out. */
const LISTED = [
  {
    instanceId: 'i-0123456789abcdef0',
    providerID: 'aws:///us-west-2b/i-0123456789abcdef0',
    instanceType: 'm7g.large',
    zone: 'us-west-2b',
    capacityType: 'spot',
    launchTime: '2024-08-10T09:20:31.000Z',
    imageId: 'ami-0a1b2c3d4e5f60004',
    network: { subnetId: 'subnet-0b1b1b1b1b1b1b1b1', securityGroupIds: ['sg-0123456789abcdef0'] },
    state: 'pending',
    nodeClaim: undefined,
    nodePool: 'spot',
    nodeClass: undefined,
    owned: false,
  },
  {
    instanceId: 'i-0fedcba9876543210',
    providerID: 'aws:///us-west-2a/i-0fedcba9876543210',
    instanceType: 'm5.large',
    zone: 'us-west-2a',
    capacityType: 'on-demand',
    launchTime: '2024-08-10T09:16:04.000Z',
    imageId: 'ami-0a1b2c3d4e5f60001',
    network: {
      subnetId: 'subnet-0a2a2a2a2a2a2a2a2',
      securityGroupIds: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
    },
    state: 'running',
    nodeClaim: 'default-7xk2p',
    nodePool: 'default',
    nodeClass: 'default',
    owned: true,
  },
];

function setUp() {
  const clients = mockedClients();
  const cloud = new Ec2CloudProvider({ ...clients, cluster: CLUSTER, now: aClock().now });
  return { ...clients, cloud };
}

describe('terminating an instance', () => {
  it('terminates the instance by id', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(TerminateInstancesCommand).resolves({
      TerminatingInstances: [
        {
          InstanceId: 'i-0123456789abcdef0',
          CurrentState: { Code: 32, Name: 'shutting-down' },
          PreviousState: { Code: 16, Name: 'running' },
        },
      ],
    });
    // Act
    await cloud.terminate('i-0123456789abcdef0');
    // Assess
    expect(ec2Mock.commandCalls(TerminateInstancesCommand)[0]?.args[0].input).toEqual({
      InstanceIds: ['i-0123456789abcdef0'],
    });
  });

  it('counts an instance EC2 no longer knows as terminated', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock
      .on(TerminateInstancesCommand)
      .rejects(
        ec2Error(
          'InvalidInstanceID.NotFound',
          "The instance ID 'i-0123456789abcdef0' does not exist",
        ),
      );
    // Act
    const terminating = cloud.terminate('i-0123456789abcdef0');
    // Assess
    await expect(terminating).resolves.toBeUndefined();
  });

  it('reports throttling as ThrottledError and anything else unchanged', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    const denied = ec2Error('UnauthorizedOperation');
    ec2Mock
      .on(TerminateInstancesCommand)
      .rejectsOnce(ec2Error('RequestLimitExceeded'))
      .rejects(denied);
    // Act
    const throttled = await cloud.terminate('i-1').catch((err: unknown) => err);
    const other = await cloud.terminate('i-1').catch((err: unknown) => err);
    // Assess
    expect(throttled).toBeInstanceOf(ThrottledError);
    expect((throttled as Error).message).toBe(
      'terminating instance i-1: throttled (RequestLimitExceeded)',
    );
    expect(other).toBe(denied);
  });
});

describe('listing managed instances', () => {
  it("asks only for live instances carrying Nodesmith's own tag for the cluster, never all those with the cluster tag (Karpenter's, node groups')", async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeInstancesCommand).resolves(fixture('describe-instances'));
    // Act
    await cloud.listManaged();
    // Assess
    expect(ec2Mock.commandCalls(DescribeInstancesCommand)[0]?.args[0].input).toEqual({
      Filters: [
        { Name: 'tag:nodesmith.io/cluster', Values: ['prod'] },
        {
          Name: 'instance-state-name',
          Values: ['pending', 'running', 'stopping', 'stopped', 'shutting-down'],
        },
      ],
      NextToken: undefined,
    });
  });

  it('maps every page of instances with their NodeClaim, sorted by instance id', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    const all = fixture<{ Reservations: unknown[] }>('describe-instances');
    ec2Mock
      .on(DescribeInstancesCommand)
      .resolvesOnce({ Reservations: all.Reservations.slice(0, 1), NextToken: 'next' } as never)
      .resolves({ Reservations: all.Reservations.slice(1) } as never);
    // Act
    const instances = await cloud.listManaged();
    // Assess
    expect(ec2Mock.commandCalls(DescribeInstancesCommand)[1]?.args[0].input.NextToken).toBe('next');
    expect(instances).toEqual(LISTED);
  });
});

describe('instances of claims written before the ownership tag', () => {
  it('describes them by id among instances with the cluster tag, without failing on an unknown id', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeInstancesCommand).resolves(fixture('describe-instances'));
    // Act
    const described = await cloud.describe(['i-0fedcba9876543210', 'i-0000000000000dead']);
    // Assess
    expect(ec2Mock.commandCalls(DescribeInstancesCommand)[0]?.args[0].input.Filters).toEqual([
      { Name: 'instance-id', Values: ['i-0fedcba9876543210', 'i-0000000000000dead'] },
      { Name: 'tag:kubernetes.io/cluster/prod', Values: ['owned'] },
      {
        Name: 'instance-state-name',
        Values: ['pending', 'running', 'stopping', 'stopped', 'shutting-down'],
      },
    ]);
    expect(described.map((i) => i.instanceId)).toEqual([
      'i-0123456789abcdef0',
      'i-0fedcba9876543210',
    ]);
  });

  it('adds only the ownership tag, with the cluster as its value', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(CreateTagsCommand).resolves({});
    // Act
    await cloud.claimOwnership(['i-0fedcba9876543210']);
    // Assess
    expect(ec2Mock.commandCalls(CreateTagsCommand)[0]?.args[0].input).toEqual({
      Resources: ['i-0fedcba9876543210'],
      Tags: [{ Key: 'nodesmith.io/cluster', Value: 'prod' }],
    });
  });
});
