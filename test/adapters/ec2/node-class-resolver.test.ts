import {
  DescribeImagesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  EC2ServiceException,
} from '@aws-sdk/client-ec2';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it, vi } from 'vitest';
import { aliasParameters } from '../../../functions/adapters/ec2/ami-aliases.ts';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import type { InstanceProfileProvisioner } from '../../../functions/adapters/ec2/instance-profiles.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';
import {
  InvalidConfigError,
  NodeClassNotReadyError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import {
  AL2023_LATEST,
  aClock,
  aNodeClass,
  CLUSTER,
  fixture,
  HOUR,
  MINUTE,
  mockedClients,
  SECOND,
  stubDiscovery,
} from './support.ts';

/** The subnets of describe-subnets.json, resolved. */
const SUBNETS = [
  {
    id: 'subnet-0a1a1a1a1a1a1a1a1',
    zone: 'us-west-2a',
    zoneID: 'usw2-az1',
    availableIpAddressCount: 4081,
  },
  {
    id: 'subnet-0a2a2a2a2a2a2a2a2',
    zone: 'us-west-2a',
    zoneID: 'usw2-az1',
    availableIpAddressCount: 8187,
  },
  {
    id: 'subnet-0b1b1b1b1b1b1b1b1',
    zone: 'us-west-2b',
    zoneID: 'usw2-az2',
    availableIpAddressCount: 4090,
  },
  {
    id: 'subnet-0c1c1c1c1c1c1c1c1',
    zone: 'us-west-2c',
    zoneID: 'usw2-az3',
    availableIpAddressCount: 12,
  },
];

function setUp(
  options: { provisioner?: InstanceProfileProvisioner; kubernetesVersion?: string } = {},
) {
  const clients = mockedClients();
  const clock = aClock();
  stubDiscovery(clients);
  const cloud = new Ec2CloudProvider({
    ...clients,
    cluster: {
      ...CLUSTER,
      kubernetesVersion: options.kubernetesVersion ?? CLUSTER.kubernetesVersion,
    },
    now: clock.now,
    instanceProfiles: options.provisioner,
  });
  return { ...clients, clock, cloud };
}

/** A class naming its instance profile rather than a role, so resolving it asks IAM nothing. */
function aClassWithProfile(spec: Partial<LaunchableNodeClass['spec']> = {}): LaunchableNodeClass {
  return aNodeClass({ instanceProfile: 'prod-nodes', role: undefined, ...spec });
}

/** SSM answers the parameter `name` with an image id. */
function stubParameter(
  ssmMock: ReturnType<typeof setUp>['ssmMock'],
  name: string,
  imageId = 'ami-0a1b2c3d4e5f60001',
): void {
  ssmMock
    .on(GetParameterCommand, { Name: name })
    .resolves({ Parameter: { Name: name, Value: imageId } });
}

function ssmNames(ssmMock: ReturnType<typeof setUp>['ssmMock']): string[] {
  return ssmMock.commandCalls(GetParameterCommand).map((call) => call.args[0].input.Name ?? '');
}

describe('EC2NodeClass resolution', () => {
  it('selects subnets per term, with * matching any value of a tag, unique and sorted by id', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    const nodeClass = aClassWithProfile({
      subnetSelectorTerms: [
        { tags: { 'karpenter.sh/discovery': 'prod', 'kubernetes.io/role/internal-elb': '*' } },
        { id: 'subnet-0b1b1b1b1b1b1b1b1' },
      ],
    });
    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    // Assess
    const filters = ec2Mock
      .commandCalls(DescribeSubnetsCommand)
      .map((c) => c.args[0].input.Filters);
    expect(filters).toEqual([
      [
        { Name: 'tag:karpenter.sh/discovery', Values: ['prod'] },
        { Name: 'tag-key', Values: ['kubernetes.io/role/internal-elb'] },
      ],
      [{ Name: 'subnet-id', Values: ['subnet-0b1b1b1b1b1b1b1b1'] }],
    ]);
    expect(resolved.subnets).toEqual(SUBNETS);
  });

  it('selects security groups by id, by name and by tags', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    const nodeClass = aClassWithProfile({
      securityGroupSelectorTerms: [
        { id: 'sg-0123456789abcdef0' },
        { name: 'eks-cluster-sg-prod-1234567890' },
        { tags: { 'karpenter.sh/discovery': 'prod' } },
      ],
    });
    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    // Assess
    const filters = ec2Mock
      .commandCalls(DescribeSecurityGroupsCommand)
      .map((c) => c.args[0].input.Filters);
    expect(filters).toEqual([
      [{ Name: 'group-id', Values: ['sg-0123456789abcdef0'] }],
      [{ Name: 'group-name', Values: ['eks-cluster-sg-prod-1234567890'] }],
      [{ Name: 'tag:karpenter.sh/discovery', Values: ['prod'] }],
    ]);
    expect(resolved.securityGroups).toEqual([
      { id: 'sg-0123456789abcdef0', name: 'prod-node' },
      { id: 'sg-0f0e0d0c0b0a09080', name: 'eks-cluster-sg-prod-1234567890' },
    ]);
  });

  it('resolves al2023@latest through the recommended SSM parameter of every architecture and variant', async () => {
    // Prepare
    const { cloud, ssmMock, ec2Mock } = setUp();
    // Act
    const resolved = await cloud.resolveNodeClass(aClassWithProfile());
    // Assess
    expect(ssmNames(ssmMock).sort()).toEqual(Object.keys(AL2023_LATEST).sort());
    expect(ec2Mock.commandCalls(DescribeImagesCommand)[0]?.args[0].input).toEqual({
      Filters: [{ Name: 'image-id', Values: Object.values(AL2023_LATEST).sort() }],
      Owners: undefined,
      NextToken: undefined,
    });
    expect(resolved.amiFamily).toBe('AL2023');
    expect(resolved.amis.map((ami) => ami.id)).toEqual([
      'ami-0a1b2c3d4e5f60005',
      'ami-0a1b2c3d4e5f60002',
      'ami-0a1b2c3d4e5f60003',
      'ami-0a1b2c3d4e5f60001',
      'ami-0a1b2c3d4e5f60004',
    ]);
    expect(resolved.amis.find((ami) => ami.id === 'ami-0a1b2c3d4e5f60001')).toEqual({
      id: 'ami-0a1b2c3d4e5f60001',
      name: 'amazon-eks-node-al2023-x86_64-standard-1.31-v20240807',
      creationDate: '2024-08-07T23:05:14.000Z',
      requirements: [
        { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
        { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'DoesNotExist' },
        { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
      ],
    });
    expect(resolved.amis.find((ami) => ami.id === 'ami-0a1b2c3d4e5f60005')?.requirements).toEqual([
      { key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] },
      { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'Exists' },
    ]);
  });

  it('reads the versioned parameters of a pinned al2023 alias', async () => {
    // Prepare
    const { cloud, ssmMock } = setUp();
    const name =
      '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/amazon-eks-node-al2023-x86_64-standard-1.31-v20240807/image_id';
    stubParameter(ssmMock, name);
    const nodeClass = aClassWithProfile({
      amiSelectorTerms: [{ alias: 'al2023@v20240807' }],
    });
    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(ssmNames(ssmMock)).toContain(name);
    expect(ssmNames(ssmMock)).toContain(
      '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/arm64/nvidia/amazon-eks-node-al2023-arm64-nvidia-1.31-v20240807/image_id',
    );
    expect(resolved.amis.map((ami) => ami.id)).toEqual(['ami-0a1b2c3d4e5f60001']);
  });

  it('reads the Bottlerocket parameters of an alias, its version without the leading v', async () => {
    // Prepare
    const { cloud, ssmMock } = setUp();
    const name = '/aws/service/bottlerocket/aws-k8s-1.31/x86_64/1.20.4/image_id';
    stubParameter(ssmMock, name);
    const nodeClass = aClassWithProfile({
      amiSelectorTerms: [{ alias: 'bottlerocket@v1.20.4' }],
    });
    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(ssmNames(ssmMock).sort()).toEqual([
      '/aws/service/bottlerocket/aws-k8s-1.31-nvidia/arm64/1.20.4/image_id',
      '/aws/service/bottlerocket/aws-k8s-1.31-nvidia/x86_64/1.20.4/image_id',
      '/aws/service/bottlerocket/aws-k8s-1.31/arm64/1.20.4/image_id',
      name,
    ]);
    expect(resolved.amiFamily).toBe('Bottlerocket');
    // One image serves both the standard and the Neuron variant.
    expect(resolved.amis.map((ami) => ami.requirements.at(-1))).toEqual([
      { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
      { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'Exists' },
    ]);
  });

  it('keeps the newest image of each architecture when terms select by name, own and Amazon images only', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeImagesCommand).resolves(fixture('describe-images-by-name'));
    const nodeClass = aClassWithProfile({
      amiFamily: 'AL2023',
      amiSelectorTerms: [{ name: 'golden-eks-1.31-*', tags: { team: 'platform' } }],
    });
    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(ec2Mock.commandCalls(DescribeImagesCommand)[0]?.args[0].input).toEqual({
      Filters: [
        { Name: 'name', Values: ['golden-eks-1.31-*'] },
        { Name: 'tag:team', Values: ['platform'] },
      ],
      Owners: ['self', 'amazon'],
      NextToken: undefined,
    });
    expect(resolved.amis.map(({ id, requirements }) => [id, requirements[0]?.values])).toEqual([
      ['ami-0c0c0c0c0c0c00002', ['amd64']],
      ['ami-0c0c0c0c0c0c00003', ['arm64']],
    ]);
  });

  it('selects images by id and by owner as given', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeImagesCommand).resolves(fixture('describe-images-by-name'));
    const nodeClass = aClassWithProfile({
      amiFamily: 'AL2023',
      amiSelectorTerms: [
        { id: 'ami-0c0c0c0c0c0c00001' },
        { owner: '111122223333', tags: { team: '*' } },
      ],
    });
    // Act
    await cloud.resolveNodeClass(nodeClass);
    // Assess
    const inputs = ec2Mock.commandCalls(DescribeImagesCommand).map((c) => c.args[0].input);
    expect(inputs).toEqual([
      {
        Filters: [{ Name: 'image-id', Values: ['ami-0c0c0c0c0c0c00001'] }],
        Owners: undefined,
        NextToken: undefined,
      },
      {
        Filters: [{ Name: 'tag-key', Values: ['team'] }],
        Owners: ['111122223333'],
        NextToken: undefined,
      },
    ]);
  });

  it('resolves al2@latest through its three recommended parameters, the GPU image serving NVIDIA and Neuron', async () => {
    // Prepare
    const { cloud, ssmMock } = setUp();
    const folder = '/aws/service/eks/optimized-ami/1.31';
    stubParameter(
      ssmMock,
      `${folder}/amazon-linux-2/recommended/image_id`,
      'ami-0a1b2c3d4e5f60001',
    );
    stubParameter(
      ssmMock,
      `${folder}/amazon-linux-2-arm64/recommended/image_id`,
      'ami-0a1b2c3d4e5f60004',
    );
    stubParameter(
      ssmMock,
      `${folder}/amazon-linux-2-gpu/recommended/image_id`,
      'ami-0a1b2c3d4e5f60002',
    );
    const nodeClass = aClassWithProfile({ amiSelectorTerms: [{ alias: 'al2@latest' }] });

    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);

    // Assess
    expect(ssmNames(ssmMock).sort()).toEqual([
      `${folder}/amazon-linux-2-arm64/recommended/image_id`,
      `${folder}/amazon-linux-2-gpu/recommended/image_id`,
      `${folder}/amazon-linux-2/recommended/image_id`,
    ]);
    expect(resolved.amiFamily).toBe('AL2');
    expect(resolved.amis.map((ami) => [ami.id, ami.requirements])).toEqual([
      [
        'ami-0a1b2c3d4e5f60002',
        [
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'Exists' },
        ],
      ],
      [
        'ami-0a1b2c3d4e5f60002',
        [
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
          { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'Exists' },
        ],
      ],
      [
        'ami-0a1b2c3d4e5f60001',
        [
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
          { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'DoesNotExist' },
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
        ],
      ],
      [
        'ami-0a1b2c3d4e5f60004',
        [
          { key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] },
          { key: 'karpenter.k8s.aws/instance-accelerator-count', operator: 'DoesNotExist' },
          { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'DoesNotExist' },
        ],
      ],
    ]);
  });

  it('reads the versioned parameters of a pinned al2 alias', () => {
    // Act
    const paths = aliasParameters('al2@v20240807', '1.31').map((parameter) => parameter.path);

    // Assess
    const folder = '/aws/service/eks/optimized-ami/1.31';
    expect([...new Set(paths)]).toEqual([
      `${folder}/amazon-linux-2/amazon-eks-node-1.31-v20240807/image_id`,
      `${folder}/amazon-linux-2-arm64/amazon-eks-arm64-node-1.31-v20240807/image_id`,
      `${folder}/amazon-linux-2-gpu/amazon-eks-gpu-node-1.31-v20240807/image_id`,
    ]);
  });

  it('reports a class with an AL2 alias not ready on Kubernetes 1.33 and later, as Karpenter does', async () => {
    // Prepare
    const { cloud, ssmMock } = setUp({ kubernetesVersion: '1.33' });
    const nodeClass = aClassWithProfile({ amiSelectorTerms: [{ alias: 'al2@latest' }] });

    // Act
    const resolving = cloud.resolveNodeClass(nodeClass);

    // Assess
    await expect(resolving).rejects.toBeInstanceOf(NodeClassNotReadyError);
    await expect(resolving).rejects.toThrow(
      'resolving alias al2@latest: AL2 aliases are no longer supported on EKS 1.33+ (see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions-standard.html#kubernetes-1-33)',
    );
    expect(ssmNames(ssmMock)).toEqual([]);
  });

  it('refuses a class whose subnet terms select nothing', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeSubnetsCommand).resolves({ Subnets: [] });
    // Act
    const resolving = cloud.resolveNodeClass(aClassWithProfile());
    // Assess
    await expect(resolving).rejects.toThrow(
      new InvalidConfigError('resolving ec2nodeclass default: no subnets match its selector terms'),
    );
  });

  it('reports EC2 throttling as ThrottledError, keeping the SDK error as cause', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    const throttled = new EC2ServiceException({
      name: 'RequestLimitExceeded',
      $fault: 'client',
      $metadata: { httpStatusCode: 503 },
      message: 'Request limit exceeded.',
    });
    ec2Mock.on(DescribeSubnetsCommand).rejects(throttled);
    // Act
    const error = await cloud.resolveNodeClass(aClassWithProfile()).catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(ThrottledError);
    expect((error as ThrottledError).cause).toBe(throttled);
  });
});

describe('EC2NodeClass instance profiles', () => {
  it('uses an instance profile given by name as it is', async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const resolved = await cloud.resolveNodeClass(
      aNodeClass({ instanceProfile: 'prod-nodes', role: undefined }),
    );
    // Assess
    expect(resolved.instanceProfile).toBe('prod-nodes');
  });

  it('derives a profile from the role, has it provisioned, and asks again only after 15 minutes', async () => {
    // Prepare
    const ensure = vi.fn(async () => undefined);
    const { cloud, clock } = setUp({ provisioner: { ensure } });
    const nodeClass = aNodeClass({ tags: { team: 'platform' } });
    // Act
    const first = await cloud.resolveNodeClass(nodeClass);
    clock.advance(14 * MINUTE);
    await cloud.resolveNodeClass(nodeClass);
    clock.advance(MINUTE + SECOND);
    await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(first.instanceProfile).toMatch(/^prod_\d+$/);
    expect(ensure).toHaveBeenCalledTimes(2);
    expect(ensure).toHaveBeenCalledWith({
      name: first.instanceProfile,
      role: 'KarpenterNodeRole-prod',
      tags: {
        team: 'platform',
        'kubernetes.io/cluster/prod': 'owned',
        'eks:eks-cluster-name': 'prod',
        'karpenter.k8s.aws/ec2nodeclass': 'default',
        'topology.kubernetes.io/region': 'us-west-2',
      },
    });
  });

  it('names the profile after the cluster and class, stable across calls and distinct per class', async () => {
    // Prepare
    const ensure = vi.fn(async () => undefined);
    const { cloud } = setUp({ provisioner: { ensure } });
    // Act
    const a = await cloud.resolveNodeClass(aNodeClass());
    const again = await cloud.resolveNodeClass(aNodeClass());
    const b = await cloud.resolveNodeClass({ ...aNodeClass(), metadata: { name: 'gpu' } });
    // Assess
    expect(again.instanceProfile).toBe(a.instanceProfile);
    expect(b.instanceProfile).not.toBe(a.instanceProfile);
  });

  it('refuses a role when no instance profile provisioner was given', async () => {
    // Prepare
    const { cloud } = setUp();
    // Act
    const resolving = cloud.resolveNodeClass(aNodeClass());
    // Assess
    await expect(resolving).rejects.toBeInstanceOf(InvalidConfigError);
  });
});

describe('EC2NodeClass resolution caching', () => {
  it('describes subnets, security groups and images again only after a minute', async () => {
    // Prepare
    const { cloud, ec2Mock, clock } = setUp();
    const nodeClass = aClassWithProfile();
    // Act
    await cloud.resolveNodeClass(nodeClass);
    clock.advance(59 * SECOND);
    await cloud.resolveNodeClass(nodeClass);
    const withinAMinute = ec2Mock.commandCalls(DescribeSubnetsCommand).length;
    clock.advance(2 * SECOND);
    await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(withinAMinute).toBe(1);
    expect(ec2Mock.commandCalls(DescribeSubnetsCommand)).toHaveLength(2);
    expect(ec2Mock.commandCalls(DescribeSecurityGroupsCommand)).toHaveLength(2);
    expect(ec2Mock.commandCalls(DescribeImagesCommand)).toHaveLength(2);
  });

  it('keeps alias parameters for 24 hours while images are described again every minute', async () => {
    // Prepare
    const { cloud, ssmMock, ec2Mock, clock } = setUp();
    const nodeClass = aClassWithProfile();
    // Act
    await cloud.resolveNodeClass(nodeClass);
    clock.advance(23 * HOUR);
    await cloud.resolveNodeClass(nodeClass);
    const within24Hours = ssmMock.commandCalls(GetParameterCommand).length;
    clock.advance(HOUR + SECOND);
    await cloud.resolveNodeClass(nodeClass);
    // Assess
    expect(within24Hours).toBe(5);
    expect(ssmMock.commandCalls(GetParameterCommand)).toHaveLength(10);
    expect(ec2Mock.commandCalls(DescribeImagesCommand)).toHaveLength(3);
  });
});

describe('Windows aliases', () => {
  it('read the Windows Server Core EKS-optimized image of the cluster version, amd64 only', () => {
    // Act
    const parameters = aliasParameters('windows2022@latest', '1.31');

    // Assess
    expect(parameters).toEqual([
      {
        path: '/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.31/image_id',
        architecture: 'amd64',
        variant: 'standard',
      },
    ]);
  });
});
