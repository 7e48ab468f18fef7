/**
 * The simulated cloud keeps the CloudProvider port's promises (functions/ports/cloud-provider.ts):
 * launches idempotent by claim name, the cheapest offering with capacity filled and the skipped
 * ones reported, capacity errors naming every offering, instances running after their boot
 * delay, terminations idempotent, throttling as the port's error, and the same run for a seed.
 */
import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';
import {
  InsufficientCapacityError,
  NodeClassNotReadyError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { SimulatedClock } from '../../../simulator/simulated-clock.ts';
import { aNewNodeClaim, T0 } from '../../contracts/state-fixtures.ts';

const ZONES = ['us-east-1a', 'us-east-1b'];
const NODE_CLASS: LaunchableNodeClass = { metadata: { name: 'default' }, spec: {} };

function world(seed = 1) {
  const clock = new SimulatedClock(T0);
  const cloud = new SimulatedCloud({ clock, region: 'us-east-1', zones: ZONES, seed });
  return { clock, cloud };
}

function claim(
  name: string,
  types: readonly string[],
  zones = ZONES,
  capacityType = 'spot',
): NodeClaimRecord {
  return {
    ...aNewNodeClaim({
      name,
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [...types] },
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: [...zones] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: [capacityType] },
      ],
      instanceTypeOptions: [...types],
    }),
    version: 1,
  };
}

async function launchContext(cloud: SimulatedCloud, names: readonly string[]) {
  const all = await cloud.instanceTypes(NODE_CLASS);
  const instanceTypes = all.filter((it) => names.includes(it.name));
  return { nodeClass: NODE_CLASS, labels: {}, taints: [], startupTaints: [], instanceTypes };
}

function cheapest(types: readonly InstanceType[], capacityType: string) {
  return types
    .flatMap((it) =>
      it.offerings
        .filter((o) => o.capacityType === capacityType)
        .map((o) => ({ it: it.name, ...o })),
    )
    .sort((a, b) => a.pricePerHour - b.pricePerHour)[0];
}

describe('the simulated cloud', () => {
  it('fills the cheapest offering of the claim and launches once per claim name', async () => {
    const { cloud } = world();
    const context = await launchContext(cloud, ['m7g.large', 'c7g.xlarge']);
    const best = cheapest(context.instanceTypes, 'spot');
    const first = await cloud.launch(claim('general-1', ['m7g.large', 'c7g.xlarge']), context);
    const again = await cloud.launch(claim('general-1', ['m7g.large', 'c7g.xlarge']), context);
    expect(first).toMatchObject({ instanceType: best?.it, zone: best?.zone, capacityType: 'spot' });
    expect(again).toEqual(first);
    expect(first.providerID).toBe(`aws:///${first.zone}/${first.instanceId}`);
    expect(cloud.instances()).toHaveLength(1);
    expect(cloud.launchCalls).toBe(2);
  });

  it('launches elsewhere when the cheapest offering has no capacity, and reports the one it skipped', async () => {
    const { cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    const best = cheapest(context.instanceTypes, 'spot');
    const skipped = {
      instanceType: 'm7g.large',
      zone: best?.zone ?? '',
      capacityType: 'spot' as const,
    };
    cloud.capacity.set(skipped, 0);
    const launched = await cloud.launch(claim('general-2', ['m7g.large']), context);
    expect(launched.zone).not.toBe(skipped.zone);
    expect(launched.unavailableOfferings).toEqual([skipped]);
  });

  it('refuses with every offering it tried when none has capacity', async () => {
    const { cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    for (const zone of ZONES)
      cloud.capacity.set({ instanceType: 'm7g.large', zone, capacityType: 'spot' }, 0);
    const launch = cloud.launch(claim('general-3', ['m7g.large']), context);
    await expect(launch).rejects.toBeInstanceOf(InsufficientCapacityError);
    await expect(launch).rejects.toMatchObject({
      offerings: ZONES.map((zone) => ({ instanceType: 'm7g.large', zone, capacityType: 'spot' })),
    });
    expect(cloud.instances()).toEqual([]);
  });

  it('offers unavailable offerings as unavailable, as the planner needs them', async () => {
    const { cloud } = world();
    const unavailable = [
      { instanceType: 'm7g.large', zone: 'us-east-1a', capacityType: 'spot' as const },
    ];
    const [type] = (await cloud.instanceTypes(NODE_CLASS, { unavailable })).filter(
      (it) => it.name === 'm7g.large',
    );
    const offering = (zone: string) =>
      type?.offerings.find((o) => o.zone === zone && o.capacityType === 'spot');
    expect(offering('us-east-1a')?.available).toBe(false);
    expect(offering('us-east-1b')?.available).toBe(true);
  });

  it('lists instances pending, then running after their boot, and forgets terminated ones', async () => {
    const { clock, cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    const { instanceId } = await cloud.launch(claim('general-4', ['m7g.large']), context);
    expect((await cloud.listManaged()).map((i) => [i.instanceId, i.state, i.nodeClaim])).toEqual([
      [instanceId, 'pending', 'general-4'],
    ]);
    clock.advanceBy(20_000);
    expect((await cloud.listManaged())[0]?.state).toBe('running');
    await cloud.terminate(instanceId);
    await cloud.terminate(instanceId);
    expect(await cloud.listManaged()).toEqual([]);
    expect(cloud.instances()[0]?.terminatedAt).toBe(clock.now().getTime());
  });

  it('gives capacity back when an instance terminates', async () => {
    const { cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    for (const zone of ZONES)
      cloud.capacity.set(
        { instanceType: 'm7g.large', zone, capacityType: 'spot' },
        zone === ZONES[0] ? 1 : 0,
      );
    const { instanceId } = await cloud.launch(claim('general-5', ['m7g.large']), context);
    await expect(cloud.launch(claim('general-6', ['m7g.large']), context)).rejects.toBeInstanceOf(
      InsufficientCapacityError,
    );
    await cloud.terminate(instanceId);
    await expect(cloud.launch(claim('general-6', ['m7g.large']), context)).resolves.toMatchObject({
      zone: ZONES[0],
    });
  });

  it('refuses for rate when told to, with the port’s error', async () => {
    const { cloud } = world();
    cloud.throttleNext(1);
    await expect(cloud.listManaged()).rejects.toBeInstanceOf(ThrottledError);
    await expect(cloud.listManaged()).resolves.toEqual([]);
  });

  it('gives the same prices, choices and instance ids for the same seed', async () => {
    const run = async (seed: number) => {
      const { cloud } = world(seed);
      const context = await launchContext(cloud, ['m7g.large', 'c7g.large', 'r7g.large']);
      const launched = await cloud.launch(
        claim('general-7', ['m7g.large', 'c7g.large', 'r7g.large']),
        context,
      );
      return { launched, prices: (await cloud.prices()).spot.get('m7g.large') };
    };
    expect(await run(3)).toEqual(await run(3));
    expect((await run(3)).prices).not.toEqual((await run(4)).prices);
  });

  it('launches into the subnet of its zone with the security groups the class resolves to, and tells the same when listing', async () => {
    // Prepare: in process, a selector by a tag other than Name finds the whole network
    const { cloud } = world();
    const nodeClass: LaunchableNodeClass = {
      metadata: { name: 'default' },
      spec: {
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'shop' } }],
        securityGroupSelectorTerms: [{ name: 'nodes' }, { id: 'sg-0notinaccount' }],
      },
    };
    const context = { ...(await launchContext(cloud, ['m7g.large'])), nodeClass };

    // Act
    const resolved = await cloud.resolveNodeClass(nodeClass);
    const launched = await cloud.launch(claim('general-1', ['m7g.large']), context);
    const [listed] = await cloud.listManaged();

    // Assess
    expect(resolved.subnets.map((subnet) => [subnet.id, subnet.zone])).toEqual([
      ['subnet-sim-us-east-1a', 'us-east-1a'],
      ['subnet-sim-us-east-1b', 'us-east-1b'],
    ]);
    expect(resolved.securityGroups).toEqual([{ id: 'sg-sim-nodes', name: 'nodes' }]);
    expect(launched.network).toEqual({
      subnetId: `subnet-sim-${launched.zone}`,
      securityGroupIds: ['sg-sim-nodes'],
    });
    expect(listed?.network).toEqual(launched.network);
  });

  it('resolves only the subnets the selector names, and launches only in zones they cover', async () => {
    // Prepare
    const { cloud } = world();
    const oneSubnet: LaunchableNodeClass = {
      metadata: { name: 'default' },
      spec: { subnetSelectorTerms: [{ id: 'subnet-sim-us-east-1b' }] },
    };
    const context = { ...(await launchContext(cloud, ['m7g.large'])), nodeClass: oneSubnet };

    // Act
    const resolved = await cloud.resolveNodeClass(oneSubnet);
    const launched = await cloud.launch(claim('general-1', ['m7g.large']), context);

    // Assess
    expect(resolved.subnets).toEqual([
      { id: 'subnet-sim-us-east-1b', zone: 'us-east-1b', availableIpAddressCount: 4091 },
    ]);
    expect(launched).toMatchObject({
      zone: 'us-east-1b',
      network: { subnetId: 'subnet-sim-us-east-1b' },
    });
  });
});

describe('spot interruptions in the simulated cloud', () => {
  it('warns as EventBridge does and reclaims the instance two minutes later', async () => {
    const { clock, cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    const { instanceId } = await cloud.launch(claim('general-8', ['m7g.large']), context);
    const reclaimed: string[] = [];
    cloud.onTermination((instance) => reclaimed.push(instance.instanceId));
    const warning = cloud.interrupt(instanceId);
    expect(warning).toMatchObject({
      version: '0',
      source: 'aws.ec2',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      time: clock.now().toISOString().replace('.000Z', 'Z'),
      detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
    });
    clock.advanceBy(119_000);
    expect(cloud.reclaim()).toEqual([]);
    clock.advanceBy(1_000);
    expect(cloud.reclaim()).toEqual([instanceId]);
    expect(reclaimed).toEqual([instanceId]);
    expect(await cloud.listManaged()).toEqual([]);
  });

  it('interrupts only spot instances that are running', async () => {
    const { cloud } = world();
    const context = await launchContext(cloud, ['m7g.large']);
    const onDemand = await cloud.launch(
      claim('general-9', ['m7g.large'], ZONES, 'on-demand'),
      context,
    );
    expect(() => cloud.interrupt(onDemand.instanceId)).toThrow('it is on-demand, not spot');
    expect(() => cloud.interrupt('i-00000000000000000')).toThrow('no such running instance');
  });
});

describe('the simulated account’s placement groups', () => {
  const TRAINING = { id: 'pg-0123456789abcdef0', name: 'training', strategy: 'cluster' } as const;
  const inGroup = (name: string): LaunchableNodeClass => ({
    metadata: { name: 'default' },
    spec: { placementGroupSelector: { name } },
  });

  it('resolve as the EC2 adapter resolves them, the class’s types carrying the group', async () => {
    // Prepare
    const clock = new SimulatedClock(T0);
    const cloud = new SimulatedCloud({
      clock,
      region: 'us-east-1',
      zones: ZONES,
      seed: 1,
      placementGroups: [TRAINING],
    });

    // Act
    const resolved = await cloud.resolveNodeClass(inGroup('training'));
    const types = await cloud.instanceTypes(inGroup('training'));
    const missing = await cloud.resolveNodeClass(inGroup('other')).catch((err: unknown) => err);

    // Assess
    expect(resolved.placementGroup).toEqual(TRAINING);
    const m5 = types.find((it) => it.name === 'm5.large');
    expect(m5?.requirements.get('karpenter.k8s.aws/placement-group-id')?.values).toEqual(
      new Set([TRAINING.id]),
    );
    expect(missing).toBeInstanceOf(NodeClassNotReadyError);
  });
});
