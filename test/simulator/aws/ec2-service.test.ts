/**
 * The controller's EC2 cloud provider, unchanged, against the simulated account's EC2 over its
 * query protocol: an EC2NodeClass resolves, instance types and spot prices are listed, a claim
 * launches through CreateFleet and its instance is the world's, capacity errors fall through to
 * the next offering, instances are listed, described and terminated, and a throttled call is the
 * port's ThrottledError.
 */
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type {
  LaunchableNodeClass,
  LaunchContext,
} from '../../../functions/ports/cloud-provider.ts';
import { NodeClassNotReadyError, ThrottledError } from '../../../functions/ports/errors.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { aliasImageId } from '../../../simulator/cloud/simulated-images.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import {
  KARPENTERS_INSTANCE,
  startKarpentersInstance,
  startTwin,
  type Twin,
  theGuidesNodeClass,
  ZONES,
} from './twin.ts';

/** The deploy guide's: it names a role, so resolving it makes its instance profile too. */
const NODE_CLASS = theGuidesNodeClass();

const TYPES = ['m5.large', 'c5.large'];

const TRAINING = {
  id: 'pg-0123456789abcdef0',
  name: 'training',
  strategy: 'partition',
  partitionCount: 3,
} as const;

function claim(name: string, capacityType: 'on-demand' | 'spot' = 'on-demand'): NodeClaimRecord {
  return {
    ...aNewNodeClaim({
      name,
      nodeClass: 'default',
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: TYPES },
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: ZONES },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: [capacityType] },
      ],
      instanceTypeOptions: TYPES,
      offering: {
        instanceType: 'c5.large',
        zone: ZONES[0] ?? '',
        capacityType,
        pricePerHour: 0.085,
      },
    }),
    version: 1,
  };
}

/** The claim's types as the planner saw them: built in process from the same catalog and prices. */
async function launchContext(
  twin: Twin,
  capacityType: 'on-demand' | 'spot' = 'on-demand',
  nodeClass: LaunchableNodeClass = NODE_CLASS,
): Promise<LaunchContext> {
  const types = await new SimulatedCloud(twin.ec2).instanceTypes(nodeClass);
  return {
    nodeClass,
    labels: { 'karpenter.sh/nodepool': 'default', team: 'shop' },
    taints: [{ key: 'dedicated', value: 'shop', effect: 'NoSchedule' }],
    startupTaints: [{ key: 'cni.example.com/not-ready', effect: 'NoSchedule' }],
    // As the planner hands them over: only the offerings of the claim's capacity type.
    instanceTypes: types
      .filter((it) => TYPES.includes(it.name))
      .map((it) => ({
        ...it,
        offerings: it.offerings.filter((o) => o.capacityType === capacityType),
      })),
  };
}

/** A booted node registers with the on-demand claim's labels and its taints, startup taints included. */
function expectRegisteredAsClaimed(context: LaunchContext | undefined): void {
  expect(context?.labels).toMatchObject({
    'karpenter.sh/nodepool': 'default',
    'karpenter.sh/capacity-type': 'on-demand',
    team: 'shop',
  });
  expect(context?.taints).toEqual([
    { key: 'dedicated', value: 'shop', effect: 'NoSchedule' },
    { key: 'cni.example.com/not-ready', effect: 'NoSchedule' },
  ]);
}

/** The on-demand offerings of the context's types, cheapest first. */
function byPrice(context: LaunchContext) {
  return context.instanceTypes
    .flatMap((it) =>
      it.offerings
        .filter((o) => o.capacityType === 'on-demand')
        .map((o) => ({
          instanceType: it.name,
          zone: o.zone,
          capacityType: o.capacityType,
          price: o.pricePerHour,
        })),
    )
    .sort(
      (a, b) =>
        a.price - b.price ||
        a.instanceType.localeCompare(b.instanceType) ||
        a.zone.localeCompare(b.zone),
    );
}

describe('the simulated EC2 behind the EC2 adapter', () => {
  let twin: Twin;
  beforeEach(async () => {
    twin = await startTwin();
  });
  afterEach(async () => {
    await twin.close();
  });

  it("resolves the deploy guide's EC2NodeClass by its selector terms: subnets, security groups and AMIs", async () => {
    // Act
    const resolved = await twin.cloud().resolveNodeClass(NODE_CLASS);

    // Assess
    expect(resolved.subnets.map((s) => [s.id, s.zone])).toEqual([
      ['subnet-sim-us-east-1a', 'us-east-1a'],
      ['subnet-sim-us-east-1b', 'us-east-1b'],
    ]);
    expect(resolved.securityGroups).toEqual([{ id: 'sg-sim-nodes', name: 'nodes' }]);
    expect(resolved.amis.map((ami) => ami.id)).toEqual(
      expect.arrayContaining([
        aliasImageId('al2023', 'latest'),
        aliasImageId('al2023', 'latest', 'arm64'),
      ]),
    );
    expect(twin.endpoint.calls.map((c) => c.action)).toEqual(
      expect.arrayContaining([
        'ec2:DescribeSubnets',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeImages',
      ]),
    );
  });

  it('resolves a placement group through DescribePlacementGroups and launches into it', async () => {
    // Prepare
    await twin.close();
    twin = await startTwin({ placementGroups: [TRAINING] });
    const inGroup = {
      ...NODE_CLASS,
      spec: { ...NODE_CLASS.spec, placementGroupSelector: { name: 'training' } },
    };
    const elsewhere = {
      ...NODE_CLASS,
      spec: { ...NODE_CLASS.spec, placementGroupSelector: { name: 'other' } },
    };
    const context = await launchContext(twin);
    const labels = { ...context.labels, 'karpenter.k8s.aws/placement-group-partition': '2' };

    // Act
    const resolved = await twin.cloud().resolveNodeClass(inGroup);
    const missing = await twin
      .cloud()
      .resolveNodeClass(elsewhere)
      .catch((err: unknown) => err);
    await twin.cloud().launch(claim('default-pgpgp'), { ...context, nodeClass: inGroup, labels });

    // Assess
    expect(resolved.placementGroup).toEqual(TRAINING);
    expect(missing).toBeInstanceOf(NodeClassNotReadyError);
    const names = twin.ec2Service.launchTemplateNames();
    const placements = names.map(
      (name) => twin.ec2Service.launchTemplate({ LaunchTemplateName: name })?.data.Placement,
    );
    expect(placements).toContainEqual({ GroupId: 'pg-0123456789abcdef0', PartitionNumber: 2 });
    expect(twin.endpoint.calls.map((c) => c.action)).toContain('ec2:DescribePlacementGroups');
  });

  it("lists the catalog's instance types at the account's spot and on-demand prices", async () => {
    // Act
    const types = await twin.cloud().instanceTypes(NODE_CLASS);
    const prices = await twin.cloud().prices();

    // Assess
    const m5 = types.find((it) => it.name === 'm5.large');
    const spot = m5?.offerings.find((o) => o.capacityType === 'spot' && o.zone === 'us-east-1b');
    expect(spot?.pricePerHour).toBe(twin.ec2.prices.spot.get('m5.large')?.get('us-east-1b'));
    expect(prices.spotSource).toBe('live');
    expect(prices.onDemandSource).toBe('live');
    expect(twin.refreshErrors).not.toContain('instance types');
    expect(twin.refreshErrors).not.toContain('spot prices');
  });

  it('launches a claim through CreateFleet; the world boots it with the labels and taints of its user data', async () => {
    // Prepare
    const context = await launchContext(twin);
    const cheapest = byPrice(context)[0];

    // Act
    const launched = await twin.cloud().launch(claim('default-abcde'), context);

    // Assess
    // On-demand prices are the same in every zone; which of those EC2 fills is its own choice.
    expect(launched.instanceType).toBe(cheapest?.instanceType);
    expect(launched.unavailableOfferings).toBeUndefined();
    const [boot] = twin.launches;
    expect(boot?.instance).toMatchObject({
      instanceId: launched.instanceId,
      nodeClaim: 'default-abcde',
      nodePool: 'default',
      nodeClass: 'default',
      owned: true,
      imageId: launched.imageId,
    });
    expectRegisteredAsClaimed(boot?.context);
    expect(boot?.context.instanceTypes.map((it) => it.name)).toEqual([launched.instanceType]);
  });

  it('launches an AL2 claim on the al2@latest image; the world reads the labels and taints bootstrap.sh passes', async () => {
    // Prepare
    const al2: LaunchableNodeClass = {
      ...NODE_CLASS,
      spec: { ...NODE_CLASS.spec, amiSelectorTerms: [{ alias: 'al2@latest' }] },
    };
    const context = await launchContext(twin, 'on-demand', al2);

    // Act
    const launched = await twin.cloud().launch(claim('default-al2aa'), context);

    // Assess
    expect(launched.imageId).toBe(aliasImageId('al2', 'latest'));
    const [boot] = twin.launches;
    expect(boot?.context.nodeClass.spec.amiFamily).toBe('AL2');
    expectRegisteredAsClaimed(boot?.context);
  });

  it('launches the same instance again for the same claim, as ClientToken makes CreateFleet idempotent', async () => {
    // Prepare
    const context = await launchContext(twin);
    const first = await twin.cloud().launch(claim('default-abcde'), context);

    // Act
    const again = await twin.cloud().launch(claim('default-abcde'), context);

    // Assess
    expect(again.instanceId).toBe(first.instanceId);
    expect(twin.ec2.instances()).toHaveLength(1);
  });

  it('falls through offerings without capacity to the next, and reports them unavailable', async () => {
    // Prepare
    const context = await launchContext(twin);
    const offerings = byPrice(context);
    const cheapestType = offerings[0]?.instanceType;
    for (const offering of offerings.filter((o) => o.instanceType === cheapestType)) {
      twin.ec2.capacity.set(offering, 0);
    }

    // Act
    const launched = await twin.cloud().launch(claim('default-abcde'), context);

    // Assess
    expect(launched.instanceType).not.toBe(cheapestType);
    expect(launched.unavailableOfferings?.length).toBeGreaterThan(0);
    for (const unavailable of launched.unavailableOfferings ?? []) {
      expect(unavailable).toMatchObject({ instanceType: cheapestType, capacityType: 'on-demand' });
    }
  });

  it('lists, describes and terminates the instances it launched', async () => {
    // Prepare
    const context = await launchContext(twin);
    const launched = await twin.cloud().launch(claim('default-abcde'), context);
    startKarpentersInstance(twin.ec2);

    // Act
    const managed = await twin.cloud().listManaged();
    const described = await twin
      .cloud()
      .describe([launched.instanceId, KARPENTERS_INSTANCE, 'i-0gone']);
    await twin.cloud().terminate(launched.instanceId);
    await twin.cloud().terminate('i-0neverlaunched');
    const afterwards = await twin.cloud().listManaged();

    // Assess
    expect(managed.map((i) => [i.instanceId, i.state, i.nodeClaim, i.owned])).toEqual([
      [launched.instanceId, 'pending', 'default-abcde', true],
    ]);
    // CreateFleet's subnet and the template's groups, as DescribeInstances then reports them.
    expect(launched.network).toEqual({
      subnetId: `subnet-sim-${launched.zone}`,
      securityGroupIds: ['sg-sim-nodes'],
    });
    expect(managed[0]?.network).toEqual(launched.network);
    expect(described.map((i) => [i.instanceId, i.nodePool, i.owned])).toEqual(
      [
        [launched.instanceId, 'default', true],
        [KARPENTERS_INSTANCE, 'default', false],
      ].sort(),
    );
    expect(afterwards).toEqual([]);
    expect(twin.ec2.find(launched.instanceId)?.terminatedAt).toBeDefined();
  });

  it('interrupts and reclaims a spot instance launched through the API, giving its capacity back', async () => {
    // Prepare
    const context = await launchContext(twin, 'spot');
    const launched = await twin.cloud().launch(claim('default-spot1', 'spot'), context);
    twin.ec2.capacity.set(launched, 0);

    // Act
    const warning = twin.ec2.interrupt(launched.instanceId);
    twin.clock.advanceBy(120_000);
    const reclaimed = twin.ec2.reclaim();

    // Assess
    expect(launched.capacityType).toBe('spot');
    expect(warning.detail['instance-id']).toBe(launched.instanceId);
    expect(reclaimed).toEqual([launched.instanceId]);
    expect(await twin.cloud().listManaged()).toEqual([]);
    expect(twin.ec2.capacity.has(launched)).toBe(true);
  });

  it('answers an unknown instance id with InvalidInstanceID.NotFound', async () => {
    // Act
    const refused = twin.clients.ec2.send(
      new DescribeInstancesCommand({ InstanceIds: ['i-0nothere'] }),
    );

    // Assess
    await expect(refused).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
      message: "The instance ID 'i-0nothere' does not exist",
    });
  });

  it("turns RequestLimitExceeded into the port's ThrottledError", async () => {
    // Prepare
    twin.ec2.throttleNext(1);

    // Act
    const listing = twin.cloud().listManaged();

    // Assess
    await expect(listing).rejects.toBeInstanceOf(ThrottledError);
    await expect(twin.cloud().listManaged()).resolves.toEqual([]);
  });
});
