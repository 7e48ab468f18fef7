/**
 * Capacity reservations over the wire: the controller's EC2 cloud provider, unchanged, finds the
 * account's reservations with DescribeCapacityReservations and launches a reserved claim through
 * CreateFleet into the reservation its launch template targets. EC2 counts the reservation's
 * instances down, reports the instance in it, and refuses a launch into a full reservation with
 * `ReservationCapacityExceeded` rather than launching it into open capacity.
 */
import { DescribeCapacityReservationsCommand, DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type {
  LaunchableNodeClass,
  LaunchContext,
} from '../../../functions/ports/cloud-provider.ts';
import { InsufficientCapacityError } from '../../../functions/ports/errors.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { startTwin, type Twin, theGuidesNodeClass } from './twin.ts';

const RESERVATION = 'cr-0m5large1a';
const TYPE = 'm5.large';
const ZONE = 'us-east-1a';

/** The deploy guide's class, selecting the account's reservations tagged for the team. */
function reservingClass(): LaunchableNodeClass {
  const guide = theGuidesNodeClass();
  return {
    ...guide,
    spec: { ...guide.spec, capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] },
  };
}

/** A claim of m5.large in us-east-1a of one capacity type; a reserved one pinned to the reservation. */
function aClaimOf(name: string, capacityType: 'reserved' | 'on-demand'): NodeClaimRecord {
  const pinned =
    capacityType === 'reserved'
      ? { key: 'karpenter.k8s.aws/capacity-reservation-id', operator: 'In', values: [RESERVATION] }
      : { key: 'topology.kubernetes.io/zone', operator: 'In', values: [ZONE] };
  return {
    ...aNewNodeClaim({
      name,
      nodeClass: 'default',
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [TYPE] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: [capacityType] },
        pinned as NodeClaimRecord['requirements'][number],
      ],
      instanceTypeOptions: [TYPE],
      offering: { instanceType: TYPE, zone: ZONE, capacityType, pricePerHour: 0 },
    }),
    version: 1,
  };
}

const reservedClaim = (name: string) => aClaimOf(name, 'reserved');

/** The claim's type as the adapter lists it: only offerings of one capacity type, as the planner hands them over. */
async function launchContext(
  twin: Twin,
  nodeClass: LaunchableNodeClass,
  capacityType: 'reserved' | 'on-demand' = 'reserved',
): Promise<LaunchContext> {
  const types = await twin.cloud().instanceTypes(nodeClass);
  return {
    nodeClass,
    labels: { 'karpenter.sh/nodepool': 'default' },
    taints: [],
    startupTaints: [],
    instanceTypes: types
      .filter((it) => it.name === TYPE)
      .map((it) => ({
        ...it,
        offerings: it.offerings.filter((o) => o.capacityType === capacityType),
      })),
  };
}

describe('capacity reservations in the simulated EC2 behind the EC2 adapter', () => {
  let twin: Twin;
  beforeEach(async () => {
    twin = await startTwin();
    twin.ec2.reservations.push(
      { id: RESERVATION, instanceType: TYPE, zone: ZONE, count: 1, tags: { team: 'ml' } },
      { id: 'cr-0c5large1b', instanceType: 'c5.large', zone: 'us-east-1b', count: 4 },
    );
  });
  afterEach(async () => {
    await twin.close();
  });

  it('lists the reservations by tag and by id, and refuses an id it does not know', async () => {
    // Act
    const byTag = await twin.clients.ec2.send(
      new DescribeCapacityReservationsCommand({
        Filters: [
          { Name: 'tag:team', Values: ['ml'] },
          { Name: 'state', Values: ['active'] },
        ],
      }),
    );
    const byId = await twin.clients.ec2.send(
      new DescribeCapacityReservationsCommand({ CapacityReservationIds: ['cr-0c5large1b'] }),
    );
    const unknown = twin.clients.ec2.send(
      new DescribeCapacityReservationsCommand({ CapacityReservationIds: ['cr-0nothere'] }),
    );

    // Assess
    expect(byTag.CapacityReservations).toEqual([
      expect.objectContaining({
        CapacityReservationId: RESERVATION,
        InstanceType: TYPE,
        AvailabilityZone: ZONE,
        State: 'active',
        InstanceMatchCriteria: 'targeted',
        TotalInstanceCount: 1,
        AvailableInstanceCount: 1,
      }),
    ]);
    expect(byId.CapacityReservations?.map((r) => r.CapacityReservationId)).toEqual([
      'cr-0c5large1b',
    ]);
    await expect(unknown).rejects.toMatchObject({ name: 'InvalidCapacityReservationId.NotFound' });
  });

  it('launches a reserved claim into its reservation, which counts it and reports it', async () => {
    // Prepare
    const nodeClass = reservingClass();
    const context = await launchContext(twin, nodeClass);

    // Act
    const launched = await twin.cloud().launch(reservedClaim('default-rsv01'), context);

    // Assess
    expect(launched).toMatchObject({ instanceType: TYPE, zone: ZONE, capacityType: 'reserved' });
    expect(launched.network?.capacityReservationId).toBe(RESERVATION);
    expect(twin.ec2.availableIn(RESERVATION)).toBe(0);
    const instance = twin.ec2.find(launched.instanceId);
    expect(instance?.capacityType).toBe('reserved');
    expect(instance?.pricePerHour).toBeLessThan(0.0001);
    const described = await twin.clients.ec2.send(
      new DescribeInstancesCommand({ InstanceIds: [launched.instanceId] }),
    );
    expect(described.Reservations?.[0]?.Instances?.[0]?.CapacityReservationId).toBe(RESERVATION);
    const [listed] = await twin.cloud().describe([launched.instanceId]);
    expect(listed?.capacityType).toBe('reserved');
    const counted = await twin.clients.ec2.send(
      new DescribeCapacityReservationsCommand({ CapacityReservationIds: [RESERVATION] }),
    );
    expect(counted.CapacityReservations?.[0]?.AvailableInstanceCount).toBe(0);
  });

  it('refuses a launch into a full reservation with ReservationCapacityExceeded, launching nothing else', async () => {
    // Prepare
    const nodeClass = reservingClass();
    const context = await launchContext(twin, nodeClass);
    await twin.cloud().launch(reservedClaim('default-rsv01'), context);

    // Act
    const refused = twin.cloud().launch(reservedClaim('default-rsv02'), context);

    // Assess
    await expect(refused).rejects.toBeInstanceOf(InsufficientCapacityError);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining('ReservationCapacityExceeded'),
      offerings: [{ instanceType: TYPE, zone: ZONE, capacityType: 'reserved' }],
    });
    expect(twin.ec2.instances()).toHaveLength(1);
  });

  it('launches on-demand outside an open reservation of the type and zone, which EC2 would otherwise fill', async () => {
    // Prepare
    twin.ec2.reservations.push({
      id: 'cr-0open1a',
      instanceType: TYPE,
      zone: ZONE,
      count: 2,
      instanceMatchCriteria: 'open',
    });
    const nodeClass = theGuidesNodeClass();
    const context = await launchContext(twin, nodeClass, 'on-demand');

    // Act
    const launched = await twin.cloud().launch(aClaimOf('default-od001', 'on-demand'), context);

    // Assess
    expect(launched).toMatchObject({ instanceType: TYPE, zone: ZONE, capacityType: 'on-demand' });
    expect(launched.network?.capacityReservationId).toBeUndefined();
    expect(twin.ec2.availableIn('cr-0open1a')).toBe(2);
  });
});
