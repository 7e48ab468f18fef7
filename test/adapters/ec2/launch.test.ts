import {
  CreateFleetCommand,
  type CreateFleetCommandInput,
  CreateLaunchTemplateCommand,
  type CreateLaunchTemplateCommandInput,
  DescribeLaunchTemplatesCommand,
  DescribePlacementGroupsCommand,
} from '@aws-sdk/client-ec2';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { clientTokenOf } from '../../../functions/adapters/ec2/fleet-request.ts';
import { parseMime } from '../../../functions/adapters/ec2/user-data/mime.ts';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import {
  InsufficientCapacityError,
  InvalidConfigError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import {
  aClaim,
  aClock,
  aLaunchContext,
  aNodeClass,
  CLUSTER,
  decodeBase64,
  ec2Error,
  fixture,
  generatedNodeConfig,
  HOUR,
  instanceTypesNamed,
  mockedClients,
  stubDiscovery,
} from './support.ts';

const TEMPLATE_NOT_FOUND = 'InvalidLaunchTemplateName.NotFoundException';

function setUp() {
  const clients = mockedClients();
  const clock = aClock();
  stubDiscovery(clients);
  clients.ec2Mock
    .on(DescribeLaunchTemplatesCommand)
    .rejects(
      ec2Error(
        TEMPLATE_NOT_FOUND,
        'At least one of the launch templates specified in the request does not exist.',
      ),
    );
  clients.ec2Mock.on(CreateLaunchTemplateCommand).resolves(fixture('create-launch-template'));
  clients.ec2Mock.on(CreateFleetCommand).resolves(fixture('create-fleet-launched'));
  const cloud = new Ec2CloudProvider({ ...clients, cluster: CLUSTER, now: clock.now });
  return { ...clients, clock, cloud };
}

type Mocked = ReturnType<typeof setUp>;

function fleetInput(mocked: Mocked, index = 0): CreateFleetCommandInput {
  const call = mocked.ec2Mock.commandCalls(CreateFleetCommand)[index];
  if (call === undefined) throw new Error(`no CreateFleet call ${index}`);
  return call.args[0].input;
}

function templateInputs(mocked: Mocked): CreateLaunchTemplateCommandInput[] {
  return mocked.ec2Mock.commandCalls(CreateLaunchTemplateCommand).map((call) => call.args[0].input);
}

function overridesOf(input: CreateFleetCommandInput): [string, string, string, string][] {
  return (input.LaunchTemplateConfigs ?? []).flatMap((config) =>
    (config.Overrides ?? []).map((o): [string, string, string, string] => [
      o.InstanceType ?? '',
      o.SubnetId ?? '',
      o.AvailabilityZone ?? '',
      o.ImageId ?? '',
    ]),
  );
}

const X86_STANDARD = 'ami-0a1b2c3d4e5f60001';

describe('launching a NodeClaim', () => {
  it('launches one instance through an instant fleet keyed by the claim name, naming offerings passed over', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    const instance = await mocked.cloud.launch(aClaim(), aLaunchContext());
    // Assess
    expect(fleetInput(mocked)).toMatchObject({
      Type: 'instant',
      ClientToken: 'default-7xk2p',
      TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
      SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
    });
    expect(fleetInput(mocked).OnDemandOptions).toBeUndefined();
    expect(instance).toEqual({
      instanceId: 'i-0123456789abcdef0',
      providerID: 'aws:///us-west-2b/i-0123456789abcdef0',
      instanceType: 'm5.large',
      zone: 'us-west-2b',
      capacityType: 'spot',
      launchTime: '2024-08-10T09:00:00.000Z',
      imageId: X86_STANDARD,
      // The subnet the fleet used, with the security groups its launch template attaches.
      network: {
        subnetId: 'subnet-0b1b1b1b1b1b1b1b1',
        securityGroupIds: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
      },
      unavailableOfferings: [
        { instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'spot' },
      ],
    });
  });

  it('asks for on-demand capacity by lowest price', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({
      offering: {
        instanceType: 'm5.large',
        zone: 'us-west-2a',
        capacityType: 'on-demand',
        pricePerHour: 0.096,
      },
    });
    // Act
    await mocked.cloud.launch(claim, aLaunchContext());
    // Assess
    const input = fleetInput(mocked);
    expect(input.OnDemandOptions).toEqual({ AllocationStrategy: 'lowest-price' });
    expect(input.SpotOptions).toBeUndefined();
    expect(input.TargetCapacitySpecification?.DefaultTargetCapacityType).toBe('on-demand');
  });

  it.each([
    ['spot', { SpotOptions: { AllocationStrategy: 'capacity-optimized-prioritized' } }],
    ['on-demand', { OnDemandOptions: { AllocationStrategy: 'prioritized' } }],
  ] as const)(
    'asks for %s capacity by priority, each override at its overlaid price, when a NodeOverlay set prices',
    async (capacityType, strategy) => {
      // Prepare: an overlay made m5.xlarge cheaper than m5.large, as the plan saw it
      const mocked = setUp();
      const context = aLaunchContext();
      const instanceTypes = context.instanceTypes.map((it) =>
        it.name !== 'm5.xlarge'
          ? it
          : {
              ...it,
              offerings: it.offerings.map((o) => ({
                ...o,
                pricePerHour: 0.01,
                priceOverlaid: true,
              })),
            },
      );
      const claim = aClaim({
        offering: {
          instanceType: 'm5.xlarge',
          zone: 'us-west-2a',
          capacityType,
          pricePerHour: 0.01,
        },
        instanceTypeOptions: ['m5.xlarge', 'm5.large'],
      });

      // Act
      await mocked.cloud.launch(claim, { ...context, instanceTypes });

      // Assess
      const input = fleetInput(mocked);
      expect(input).toMatchObject(strategy);
      const priorities = (input.LaunchTemplateConfigs ?? []).flatMap((config) =>
        (config.Overrides ?? []).map((o) => [o.InstanceType, o.Priority]),
      );
      const listed = (name: string) =>
        context.instanceTypes
          .find((it) => it.name === name)
          ?.offerings.find((o) => o.capacityType === capacityType)?.pricePerHour;
      expect(priorities).toContainEqual(['m5.xlarge', 0.01]);
      expect(priorities).toContainEqual(['m5.large', listed('m5.large')]);
    },
  );

  it('leaves priorities out when no price is overlaid', async () => {
    // Prepare
    const mocked = setUp();

    // Act
    await mocked.cloud.launch(aClaim(), aLaunchContext());

    // Assess
    const overrides = (fleetInput(mocked).LaunchTemplateConfigs ?? []).flatMap(
      (c) => c.Overrides ?? [],
    );
    expect(overrides.filter((o) => o.Priority !== undefined)).toEqual([]);
  });

  it('requests every option in every allowed zone through the zone subnet with the most free addresses', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    await mocked.cloud.launch(aClaim(), aLaunchContext());
    // Assess
    expect(overridesOf(fleetInput(mocked))).toEqual([
      ['m5.large', 'subnet-0a2a2a2a2a2a2a2a2', 'us-west-2a', X86_STANDARD],
      ['m5.large', 'subnet-0b1b1b1b1b1b1b1b1', 'us-west-2b', X86_STANDARD],
      ['m5.large', 'subnet-0c1c1c1c1c1c1c1c1', 'us-west-2c', X86_STANDARD],
      ['m5.xlarge', 'subnet-0a2a2a2a2a2a2a2a2', 'us-west-2a', X86_STANDARD],
      ['m5.xlarge', 'subnet-0b1b1b1b1b1b1b1b1', 'us-west-2b', X86_STANDARD],
      ['m5.xlarge', 'subnet-0c1c1c1c1c1c1c1c1', 'us-west-2c', X86_STANDARD],
    ]);
  });

  it("keeps to the claim's zones and skips offerings that are unavailable", async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({
      requirements: [
        ...aClaim().requirements,
        {
          key: 'topology.kubernetes.io/zone',
          operator: 'In',
          values: ['us-west-2a', 'us-west-2b'],
        },
      ],
    });
    const context = aLaunchContext();
    const instanceTypes = context.instanceTypes.map((it) =>
      it.name !== 'm5.xlarge'
        ? it
        : {
            ...it,
            offerings: it.offerings.map((o) =>
              o.zone === 'us-west-2a' ? { ...o, available: false } : o,
            ),
          },
    );
    // Act
    await mocked.cloud.launch(claim, { ...context, instanceTypes });
    // Assess
    expect(overridesOf(fleetInput(mocked)).map(([type, , zone]) => `${type}/${zone}`)).toEqual([
      'm5.large/us-west-2a',
      'm5.large/us-west-2b',
      'm5.xlarge/us-west-2b',
    ]);
  });

  it('asks for at most the 60 cheapest options, in the order the claim lists them', async () => {
    // Prepare
    const mocked = setUp();
    const priced = onDemandPrices(CLUSTER.region).prices;
    const names = BUNDLED_CATALOG.filter(
      (e) =>
        e.arch === 'amd64' &&
        e.gpuCount === undefined &&
        e.acceleratorCount === undefined &&
        priced.has(e.name),
    )
      .slice(0, 80)
      .map((e) => e.name)
      .reverse();
    const claim = aClaim({ instanceTypeOptions: names, requirements: [] });
    const context = aLaunchContext({ instanceTypes: instanceTypesNamed(names) });
    // Act
    await mocked.cloud.launch(claim, context);
    // Assess
    const requested = [...new Set(overridesOf(fleetInput(mocked)).map(([type]) => type))];
    expect(requested).toHaveLength(60);
    expect(new Set(requested)).toEqual(new Set(names.slice(0, 60)));
    expect(fleetInput(mocked).LaunchTemplateConfigs?.length).toBe(templateInputs(mocked).length);
  });

  it("tags the instance, its volumes and the fleet with Nodesmith's ownership, the claim and the class tags, and not with Karpenter's NodePool key its garbage collection lists by", async () => {
    // Prepare
    const mocked = setUp();
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      tags: { team: 'platform', 'cost-center': '42' },
    });
    // Act
    await mocked.cloud.launch(aClaim(), aLaunchContext({ nodeClass }));
    // Assess
    const tags = [
      { Key: 'Name', Value: 'default-7xk2p' },
      { Key: 'cost-center', Value: '42' },
      { Key: 'eks:eks-cluster-name', Value: 'prod' },
      { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: 'default' },
      { Key: 'karpenter.sh/nodeclaim', Value: 'default-7xk2p' },
      { Key: 'kubernetes.io/cluster/prod', Value: 'owned' },
      { Key: 'nodesmith.io/cluster', Value: 'prod' },
      { Key: 'nodesmith.io/nodepool', Value: 'default' },
      { Key: 'team', Value: 'platform' },
    ];
    expect(fleetInput(mocked).TagSpecifications).toEqual([
      { ResourceType: 'instance', Tags: tags },
      { ResourceType: 'volume', Tags: tags },
      { ResourceType: 'fleet', Tags: tags },
    ]);
  });

  it('keeps the client token within 64 characters for a long claim name, one token per name', () => {
    // Act
    const long = `${'a'.repeat(70)}-1`;
    const token = clientTokenOf(long);
    // Assess
    expect(clientTokenOf('default-7xk2p')).toBe('default-7xk2p');
    expect(token).toHaveLength(64);
    expect(token).toBe(clientTokenOf(long));
    expect(token).not.toBe(clientTokenOf(`${'a'.repeat(70)}-2`));
  });

  it('refuses a claim whose zones hold none of the class subnets', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({
      requirements: [
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-west-2d'] },
      ],
    });
    // Act
    const launching = mocked.cloud.launch(claim, aLaunchContext());
    // Assess
    await expect(launching).rejects.toBeInstanceOf(InvalidConfigError);
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(0);
  });
});

describe('launch templates', () => {
  it('creates one template per AMI and max pods, with the bootstrap user data for that max pods', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    await mocked.cloud.launch(aClaim(), aLaunchContext());
    // Assess
    const created = templateInputs(mocked);
    const maxPods = created.map(
      (input) =>
        generatedNodeConfig(decodeBase64(input.LaunchTemplateData?.UserData)).spec.kubelet.config
          .maxPods,
    );
    expect(maxPods.sort()).toEqual([29, 58]);
    const names = fleetInput(mocked).LaunchTemplateConfigs?.map(
      (c) => c.LaunchTemplateSpecification,
    );
    expect(names).toEqual(
      created.map((input) => ({
        LaunchTemplateName: input.LaunchTemplateName,
        Version: '$Latest',
      })),
    );
    for (const input of created)
      expect(input.LaunchTemplateName).toMatch(/^nodesmith\/prod\/[0-9a-f]{16}$/);
  });

  it('writes the AMI, profile, security groups, IMDS defaults, disks and tags into the template', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
    // Act
    await mocked.cloud.launch(claim, aLaunchContext());
    // Assess
    const [input] = templateInputs(mocked);
    expect(input?.LaunchTemplateData).toMatchObject({
      ImageId: X86_STANDARD,
      IamInstanceProfile: { Name: 'prod-nodes' },
      SecurityGroupIds: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
      MetadataOptions: {
        HttpEndpoint: 'enabled',
        HttpProtocolIpv6: 'disabled',
        HttpPutResponseHopLimit: 1,
        HttpTokens: 'required',
      },
      BlockDeviceMappings: [
        { DeviceName: '/dev/xvda', Ebs: { Encrypted: true, VolumeSize: 20, VolumeType: 'gp3' } },
      ],
      Monitoring: { Enabled: false },
    });
    expect(input?.TagSpecifications?.[0]?.Tags).toContainEqual({
      Key: 'karpenter.k8s.aws/cluster',
      Value: 'prod',
    });
    expect(input?.LaunchTemplateData?.TagSpecifications?.[0]?.ResourceType).toBe(
      'network-interface',
    );
  });

  // aws: launchtemplate/suite_test.go "should set the capacity reservation specification
  // according to the capacity reservation feature flag" (enabled, Karpenter's default since v1.6).
  it.each(['spot', 'on-demand'] as const)(
    'keeps a %s launch out of every capacity reservation, open ones included',
    async (capacityType) => {
      // Prepare
      const mocked = setUp();
      const claim = aClaim({
        offering: {
          instanceType: 'm5.large',
          zone: 'us-west-2a',
          capacityType,
          pricePerHour: 0.096,
        },
      });
      // Act
      await mocked.cloud.launch(claim, aLaunchContext());
      // Assess
      const inputs = templateInputs(mocked);
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) {
        expect(input.LaunchTemplateData?.CapacityReservationSpecification).toEqual({
          CapacityReservationPreference: 'none',
        });
      }
    },
  );

  it('passes IMDS settings, the public IP choice and monitoring through, under a new template name', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      metadataOptions: { httpPutResponseHopLimit: 2, httpTokens: 'optional' },
      associatePublicIPAddress: false,
      detailedMonitoring: true,
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          ebs: {
            volumeSize: '100Gi',
            volumeType: 'gp3',
            iops: 4000,
            encrypted: true,
            kmsKeyID: 'alias/nodes',
          },
        },
      ],
    });
    // Act
    await mocked.cloud.launch(claim, aLaunchContext());
    await mocked.cloud.launch(claim, aLaunchContext({ nodeClass }));
    // Assess
    const [plain, tuned] = templateInputs(mocked);
    expect(tuned?.LaunchTemplateName).not.toBe(plain?.LaunchTemplateName);
    expect(tuned?.LaunchTemplateData).toMatchObject({
      MetadataOptions: {
        HttpEndpoint: 'enabled',
        HttpProtocolIpv6: 'disabled',
        HttpPutResponseHopLimit: 2,
        HttpTokens: 'optional',
      },
      NetworkInterfaces: [
        {
          DeviceIndex: 0,
          AssociatePublicIpAddress: false,
          Groups: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
        },
      ],
      Monitoring: { Enabled: true },
      BlockDeviceMappings: [
        {
          DeviceName: '/dev/xvda',
          Ebs: {
            VolumeSize: 100,
            VolumeType: 'gp3',
            Iops: 4000,
            Encrypted: true,
            KmsKeyId: 'alias/nodes',
          },
        },
      ],
    });
    expect(tuned?.LaunchTemplateData?.SecurityGroupIds).toBeUndefined();
  });

  it('passes CPU options and the initialization rate of a volume made from a snapshot through', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      cpuOptions: { nestedVirtualization: 'disabled' },
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          ebs: { volumeSize: '50Gi', snapshotID: 'snap-0123456789', volumeInitializationRate: 200 },
        },
      ],
    });
    // Act
    await mocked.cloud.launch(claim, aLaunchContext());
    await mocked.cloud.launch(claim, aLaunchContext({ nodeClass }));
    // Assess
    const [plain, tuned] = templateInputs(mocked);
    expect(plain?.LaunchTemplateData?.CpuOptions).toBeUndefined();
    expect(tuned?.LaunchTemplateData?.CpuOptions).toEqual({ NestedVirtualization: 'disabled' });
    expect(tuned?.LaunchTemplateData?.BlockDeviceMappings?.[0]?.Ebs).toMatchObject({
      SnapshotId: 'snap-0123456789',
      VolumeInitializationRate: 200,
    });
  });

  // aws: pkg/providers/launchtemplate/suite_test.go, "should set 'ConnectionTracking' based on EC2NodeClass"
  it.each([
    ['no timeouts', undefined, undefined],
    [
      "EC2's defaults",
      { tcpEstablishedTimeout: 432000, udpStreamTimeout: 180, udpTimeout: 30 },
      { TcpEstablishedTimeout: 432000, UdpStreamTimeout: 180, UdpTimeout: 30 },
    ],
    ['a TCP timeout alone', { tcpEstablishedTimeout: 86400 }, { TcpEstablishedTimeout: 86400 }],
  ])(
    'sets connection tracking on the primary interface from the class: %s',
    async (_case, connectionTracking, expected) => {
      // Prepare
      const mocked = setUp();
      const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
      const nodeClass = aNodeClass({
        instanceProfile: 'prod-nodes',
        role: undefined,
        ...(connectionTracking === undefined ? {} : { connectionTracking }),
      });
      // Act
      await mocked.cloud.launch(claim, aLaunchContext({ nodeClass }));
      // Assess
      const [input] = templateInputs(mocked);
      const [primary] = input?.LaunchTemplateData?.NetworkInterfaces ?? [];
      expect(primary?.ConnectionTrackingSpecification).toEqual(expected);
      if (expected !== undefined) {
        expect(primary).toMatchObject({ DeviceIndex: 0, Groups: expect.any(Array) });
        expect(input?.LaunchTemplateData?.SecurityGroupIds).toBeUndefined();
      }
    },
  );

  // aws: pkg/providers/launchtemplate/suite_test.go, "should set 'IPv4PrefixCount' based on EC2NodeClass"
  it.each([0, 1, 10, 100])(
    'sets %i IPv4 prefixes on the primary interface from the class',
    async (ipPrefixCount) => {
      // Prepare
      const mocked = setUp();
      const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
      const nodeClass = aNodeClass({
        instanceProfile: 'prod-nodes',
        role: undefined,
        ipPrefixCount,
      });
      // Act
      await mocked.cloud.launch(claim, aLaunchContext({ nodeClass }));
      // Assess
      const [input] = templateInputs(mocked);
      expect(input?.LaunchTemplateData?.NetworkInterfaces).toEqual([
        {
          DeviceIndex: 0,
          Ipv4PrefixCount: ipPrefixCount,
          Groups: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
        },
      ]);
    },
  );

  describe('EFA', () => {
    const EFA_TYPES = ['c5n.18xlarge', 'p5.48xlarge'];
    const TIMEOUTS = { tcpEstablishedTimeout: 86400, udpStreamTimeout: 120, udpTimeout: 45 };

    function efaLaunch(requests: Record<string, number>) {
      const nodeClass = aNodeClass({
        instanceProfile: 'prod-nodes',
        role: undefined,
        connectionTracking: TIMEOUTS,
      });
      const claim = aClaim({
        instanceTypeOptions: EFA_TYPES,
        requests: { cpu: 1000, ...requests },
        offering: {
          instanceType: 'c5n.18xlarge',
          zone: 'us-west-2a',
          capacityType: 'spot',
          pricePerHour: 3.9,
        },
      });
      const context = aLaunchContext({
        nodeClass,
        instanceTypes: instanceTypesNamed(EFA_TYPES, nodeClass),
      });
      return { claim, context };
    }

    // aws: pkg/providers/launchtemplate/suite_test.go, "should apply ConnectionTracking to every EFA ENI"
    it('attaches every EFA interface a type has, one per network card, when the claim asks for EFA', async () => {
      // Prepare
      const mocked = setUp();
      const { claim, context } = efaLaunch({ 'vpc.amazonaws.com/efa': 1 });
      // Act
      await mocked.cloud.launch(claim, context);
      // Assess
      const interfaces = templateInputs(mocked).map(
        (input) => input.LaunchTemplateData?.NetworkInterfaces ?? [],
      );
      expect(interfaces.map((list) => list.length).sort((a, b) => a - b)).toEqual([1, 32]);
      const p5 = interfaces.find((list) => list.length === 32) ?? [];
      expect(p5.map((ni) => [ni.NetworkCardIndex, ni.DeviceIndex]).slice(0, 3)).toEqual([
        [0, 0],
        [1, 1],
        [2, 1],
      ]);
      for (const ni of interfaces.flat()) {
        expect(ni).toMatchObject({
          InterfaceType: 'efa',
          Groups: ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'],
          ConnectionTrackingSpecification: {
            TcpEstablishedTimeout: 86400,
            UdpStreamTimeout: 120,
            UdpTimeout: 45,
          },
        });
      }
    });

    const LISTED = [
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
      { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' },
      { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
      { networkCardIndex: 1, deviceIndex: 1, interfaceType: 'interface' },
    ] as const;

    // aws: pkg/providers/launchtemplate/suite_test.go, "should configure network interfaces with same
    // configuration as NodeClass", "should not set prefix count on EFA-only interfaces" and "should
    // apply ConnectionTracking to every user-configured NetworkInterface … except efa-only"
    it.each([
      ['without asking for EFA', {}],
      ['asking for EFA', { 'vpc.amazonaws.com/efa': 2 }],
    ])('attaches the class’s own interfaces, %s', async (_case, requests) => {
      // Prepare
      const mocked = setUp();
      const nodeClass = aNodeClass({
        instanceProfile: 'prod-nodes',
        role: undefined,
        networkInterfaces: LISTED,
        ipPrefixCount: 2,
        associatePublicIPAddress: false,
        connectionTracking: TIMEOUTS,
      });
      const claim = aClaim({
        instanceTypeOptions: ['p5.48xlarge'],
        requests: { cpu: 1000, ...requests },
      });
      const context = aLaunchContext({
        nodeClass,
        instanceTypes: instanceTypesNamed(['p5.48xlarge'], nodeClass),
      });
      // Act
      await mocked.cloud.launch(claim, context);
      // Assess
      const [input] = templateInputs(mocked);
      const groups = ['sg-0123456789abcdef0', 'sg-0f0e0d0c0b0a09080'];
      const ip = {
        InterfaceType: 'interface',
        Ipv4PrefixCount: 2,
        Groups: groups,
        AssociatePublicIpAddress: false,
        ConnectionTrackingSpecification: {
          TcpEstablishedTimeout: 86400,
          UdpStreamTimeout: 120,
          UdpTimeout: 45,
        },
      };
      const efaOnly = { InterfaceType: 'efa-only', Groups: groups };
      expect(input?.LaunchTemplateData?.NetworkInterfaces).toEqual([
        { NetworkCardIndex: 0, DeviceIndex: 0, ...ip },
        { NetworkCardIndex: 0, DeviceIndex: 1, ...efaOnly },
        { NetworkCardIndex: 1, DeviceIndex: 0, ...efaOnly },
        { NetworkCardIndex: 1, DeviceIndex: 1, ...ip },
      ]);
    });

    it('attaches no EFA interface to a type that has them when the claim does not ask', async () => {
      // Prepare
      const mocked = setUp();
      const { claim, context } = efaLaunch({});
      // Act
      await mocked.cloud.launch(claim, context);
      // Assess
      const interfaces = templateInputs(mocked).flatMap(
        (input) => input.LaunchTemplateData?.NetworkInterfaces ?? [],
      );
      expect(interfaces.map((ni) => [ni.DeviceIndex, ni.InterfaceType])).toEqual([
        [0, undefined],
        [0, undefined],
      ]);
    });
  });

  // aws: pkg/providers/launchtemplate/types.go `buildPlacement`
  it.each([
    ['a partition group, in the partition the claim was planned into', 'partition', '2', 2],
    ['a cluster group', 'cluster', undefined, undefined],
  ] as const)('launches into %s', async (_case, strategy, partition, partitionNumber) => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(DescribePlacementGroupsCommand).resolves({
      PlacementGroups: [
        { GroupId: 'pg-0123456789abcdef0', GroupName: 'training', Strategy: strategy },
      ],
    });
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      placementGroupSelector: { name: 'training' },
    });
    const context = aLaunchContext({ nodeClass });
    const labels =
      partition === undefined
        ? context.labels
        : { ...context.labels, 'karpenter.k8s.aws/placement-group-partition': partition };
    // Act
    await mocked.cloud.launch(aClaim({ instanceTypeOptions: ['m5.large'] }), {
      ...context,
      labels,
    });
    // Assess
    const [input] = templateInputs(mocked);
    expect(input?.LaunchTemplateData?.Placement).toEqual({
      GroupId: 'pg-0123456789abcdef0',
      PartitionNumber: partitionNumber,
    });
  });

  it('bootstraps AL2023 nodes with their labels, taints and the unregistered taint', async () => {
    // Prepare
    const mocked = setUp();
    // Act
    await mocked.cloud.launch(aClaim({ instanceTypeOptions: ['m5.large'] }), aLaunchContext());
    // Assess
    const userData = decodeBase64(templateInputs(mocked)[0]?.LaunchTemplateData?.UserData);
    const parts = parseMime(userData);
    expect(parts).toHaveLength(1);
    const config = parse(parts[0]?.content ?? '');
    expect(config.kind).toBe('NodeConfig');
    expect(config.spec.cluster).toMatchObject({
      name: 'prod',
      apiServerEndpoint: CLUSTER.endpoint,
      cidr: '172.20.0.0/16',
    });
    expect(config.spec.kubelet.flags).toEqual([
      '--node-labels="karpenter.k8s.aws/ec2nodeclass=default,karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=default,team=platform"',
    ]);
    expect(config.spec.kubelet.config.registerWithTaints).toEqual([
      { key: 'dedicated', value: 'batch', effect: 'NoSchedule' },
      { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' },
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ]);
  });

  it('bootstraps Bottlerocket nodes with TOML settings and its two volumes', async () => {
    // Prepare
    const mocked = setUp();
    const nodeClass = aNodeClass({
      instanceProfile: 'prod-nodes',
      role: undefined,
      amiFamily: 'Bottlerocket',
      amiSelectorTerms: [{ id: 'ami-0a1b2c3d4e5f60001' }],
      userData: '[settings.host-containers.admin]\nenabled = true\n',
    });
    // Act
    await mocked.cloud.launch(
      aClaim({ instanceTypeOptions: ['m5.large'] }),
      aLaunchContext({ nodeClass }),
    );
    // Assess
    const data = templateInputs(mocked)[0]?.LaunchTemplateData;
    const settings = parseToml(decodeBase64(data?.UserData)).settings as Record<
      string,
      Record<string, unknown>
    >;
    expect(settings['host-containers']).toEqual({ admin: { enabled: true } });
    expect(settings.kubernetes).toMatchObject({
      'cluster-name': 'prod',
      'max-pods': 29,
      'node-taints': { 'karpenter.sh/unregistered': [':NoExecute'] },
    });
    expect(data?.BlockDeviceMappings?.map((m) => [m.DeviceName, m.Ebs?.VolumeSize])).toEqual([
      ['/dev/xvda', 4],
      ['/dev/xvdb', 20],
    ]);
  });

  it('reuses a template: created once, then found in memory for as long as the function lives', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
    // Act
    await mocked.cloud.launch(claim, aLaunchContext());
    await mocked.cloud.launch({ ...claim, name: 'default-9abcd' }, aLaunchContext());
    mocked.clock.advance(12 * HOUR);
    await mocked.cloud.launch({ ...claim, name: 'default-efghi' }, aLaunchContext());
    // Assess
    expect(mocked.ec2Mock.commandCalls(DescribeLaunchTemplatesCommand)).toHaveLength(1);
    expect(templateInputs(mocked)).toHaveLength(1);
    const names = [0, 1, 2].map(
      (i) => fleetInput(mocked, i).LaunchTemplateConfigs?.[0]?.LaunchTemplateSpecification,
    );
    expect(new Set(names.map((n) => n?.LaunchTemplateName)).size).toBe(1);
  });

  it('finds a template another function created by name, and creates none', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock
      .on(DescribeLaunchTemplatesCommand)
      .resolves(fixture('describe-launch-templates'));
    // Act
    await mocked.cloud.launch(aClaim({ instanceTypeOptions: ['m5.large'] }), aLaunchContext());
    // Assess
    expect(mocked.ec2Mock.commandCalls(DescribeLaunchTemplatesCommand)).toHaveLength(1);
    expect(templateInputs(mocked)).toHaveLength(0);
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(1);
  });

  it('shares one lookup and one creation of a template among launches running at once', async () => {
    // Prepare
    const mocked = setUp();
    const claims = ['default-aaaaa', 'default-bbbbb', 'default-ccccc', 'default-ddddd'].map(
      (name) => ({ ...aClaim({ instanceTypeOptions: ['m5.large'] }), name }),
    );
    // Act
    await Promise.all(claims.map((claim) => mocked.cloud.launch(claim, aLaunchContext())));
    // Assess
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(4);
    expect(mocked.ec2Mock.commandCalls(DescribeLaunchTemplatesCommand)).toHaveLength(1);
    expect(templateInputs(mocked)).toHaveLength(1);
  });

  it('shares templates among claims whose cheapest options differ in type and zone', async () => {
    // Prepare
    const mocked = setUp();
    const claim = aClaim({ instanceTypeOptions: ['m5.large', 'm5.xlarge'] });
    const asPredicted = (type: string, zoneId: string) =>
      aLaunchContext({
        labels: {
          ...aLaunchContext().labels,
          'node.kubernetes.io/instance-type': type,
          'karpenter.k8s.aws/instance-size': type.slice(type.indexOf('.') + 1),
          'topology.k8s.aws/zone-id': zoneId,
        },
      });
    // Act
    await mocked.cloud.launch(claim, asPredicted('m5.large', 'usw2-az1'));
    const createdByTheFirst = templateInputs(mocked).length;
    await mocked.cloud.launch(
      { ...claim, name: 'default-9abcd' },
      asPredicted('m5.xlarge', 'usw2-az2'),
    );
    // Assess
    expect(createdByTheFirst).toBeGreaterThan(0);
    expect(templateInputs(mocked)).toHaveLength(createdByTheFirst);
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(2);
  });

  it('recreates a template CreateFleet reports missing and retries the launch once', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock
      .on(CreateFleetCommand)
      .resolvesOnce(fixture('create-fleet-template-missing'))
      .resolves(fixture('create-fleet-launched'));
    const claim = aClaim({ instanceTypeOptions: ['m5.large'] });
    // Act
    const instance = await mocked.cloud.launch(claim, aLaunchContext());
    // Assess
    expect(instance.instanceId).toBe('i-0123456789abcdef0');
    expect(templateInputs(mocked)).toHaveLength(2);
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(2);
    expect(fleetInput(mocked, 1)).toEqual(fleetInput(mocked, 0));
  });

  it('recreates a template when CreateFleet itself fails for the missing template', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock
      .on(CreateFleetCommand)
      .rejectsOnce(ec2Error(TEMPLATE_NOT_FOUND))
      .resolves(fixture('create-fleet-launched'));
    // Act
    await mocked.cloud.launch(aClaim({ instanceTypeOptions: ['m5.large'] }), aLaunchContext());
    // Assess
    expect(templateInputs(mocked)).toHaveLength(2);
  });

  it('gives up when the template is missing again after it was recreated', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(CreateFleetCommand).resolves(fixture('create-fleet-template-missing'));
    // Act
    const launching = mocked.cloud.launch(
      aClaim({ instanceTypeOptions: ['m5.large'] }),
      aLaunchContext(),
    );
    // Assess
    await expect(launching).rejects.toThrow(/launch templates vanished twice/);
    expect(mocked.ec2Mock.commandCalls(CreateFleetCommand)).toHaveLength(2);
  });
});

describe('launch failures', () => {
  it('reports exactly the offerings that had no capacity as InsufficientCapacityError', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(CreateFleetCommand).resolves(fixture('create-fleet-insufficient-capacity'));
    // Act
    const error = await mocked.cloud
      .launch(aClaim(), aLaunchContext())
      .catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect((error as InsufficientCapacityError).offerings).toEqual([
      { instanceType: 'm5.large', zone: 'us-west-2a', capacityType: 'spot' },
      { instanceType: 'm5.large', zone: 'us-west-2b', capacityType: 'spot' },
      { instanceType: 'm5.xlarge', zone: 'us-west-2a', capacityType: 'spot' },
      { instanceType: 'm5.xlarge', zone: 'us-west-2c', capacityType: 'spot' },
    ]);
    expect((error as Error).message).toMatch(
      /^launching node claim default-7xk2p: InsufficientFreeAddressesInSubnet/,
    );
  });

  it('reports CreateFleet throttling as ThrottledError with the SDK error as cause', async () => {
    // Prepare
    const mocked = setUp();
    const throttled = ec2Error('RequestLimitExceeded', 'Request limit exceeded.');
    mocked.ec2Mock.on(CreateFleetCommand).rejects(throttled);
    // Act
    const error = await mocked.cloud
      .launch(aClaim(), aLaunchContext())
      .catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(ThrottledError);
    expect((error as ThrottledError).cause).toBe(throttled);
  });

  it('rethrows any other CreateFleet failure unchanged', async () => {
    // Prepare
    const mocked = setUp();
    const denied = ec2Error(
      'UnauthorizedOperation',
      'You are not authorized to perform this operation.',
    );
    mocked.ec2Mock.on(CreateFleetCommand).rejects(denied);
    // Act
    const error = await mocked.cloud
      .launch(aClaim(), aLaunchContext())
      .catch((err: unknown) => err);
    // Assess
    expect(error).toBe(denied);
  });

  it('reports fleet errors that are not about capacity as a plain error naming them', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(CreateFleetCommand).resolves({
      FleetId: 'fleet-0f1e2d3c-4b5a-4697-8897-a6b5c4d3e2f1',
      Instances: [],
      Errors: [
        {
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm5.large', AvailabilityZone: 'us-west-2a' },
          },
          Lifecycle: 'spot',
          ErrorCode: 'InvalidParameterValue',
          ErrorMessage: 'Value (prod-nodes) for parameter iamInstanceProfile.name is invalid.',
        },
      ],
    });
    // Act
    const error = await mocked.cloud
      .launch(aClaim(), aLaunchContext())
      .catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(InsufficientCapacityError);
    expect((error as Error).message).toBe(
      'launching node claim default-7xk2p: InvalidParameterValue: Value (prod-nodes) for parameter iamInstanceProfile.name is invalid.',
    );
  });
});
