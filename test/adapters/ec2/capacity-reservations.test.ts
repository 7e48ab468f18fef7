/**
 * Capacity reservations through the EC2 adapter: selected as Karpenter's provider queries them,
 * recorded as the class status holds them, offered with their free instances, launched into
 * with targeted launch templates. Cases ported from aws: pkg/controllers/nodeclass/
 * capacityreservation_test.go and pkg/providers/capacityreservation/suite_test.go (v1.14.1).
 */
import {
  type CapacityReservation,
  CreateFleetCommand,
  type CreateFleetCommandOutput,
  CreateLaunchTemplateCommand,
  DescribeCapacityReservationsCommand,
  DescribeLaunchTemplatesCommand,
} from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { reservationQueries } from '../../../functions/adapters/ec2/capacity-reservations.ts';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import type { CapacityReservationSelectorTerm } from '../../../functions/domain/capacity-reservation.ts';
import { InsufficientCapacityError } from '../../../functions/ports/errors.ts';
import {
  aClaim,
  aClock,
  aLaunchContext,
  aNodeClass,
  CLUSTER,
  ec2Error,
  fixture,
  MINUTE,
  mockedClients,
  stubDiscovery,
} from './support.ts';

const T0 = new Date('2024-08-10T09:00:00Z');

function aReservation(overrides: Partial<CapacityReservation> = {}): CapacityReservation {
  return {
    CapacityReservationId: 'cr-0a1a1a1a1a1a1a1a1',
    InstanceType: 'm5.large',
    AvailabilityZone: 'us-west-2a',
    OwnerId: '012345678901',
    InstanceMatchCriteria: 'targeted',
    State: 'active',
    AvailableInstanceCount: 2,
    TotalInstanceCount: 2,
    ...overrides,
  };
}

function setUp(reservations: CapacityReservation[] = [aReservation()]) {
  const clients = mockedClients();
  const clock = aClock();
  stubDiscovery(clients);
  clients.ec2Mock
    .on(DescribeCapacityReservationsCommand)
    .resolves({ CapacityReservations: reservations });
  clients.ec2Mock
    .on(DescribeLaunchTemplatesCommand)
    .rejects(ec2Error('InvalidLaunchTemplateName.NotFoundException'));
  clients.ec2Mock.on(CreateLaunchTemplateCommand).resolves(fixture('create-launch-template'));
  const cloud = new Ec2CloudProvider({ ...clients, cluster: CLUSTER, now: clock.now });
  return { ...clients, clock, cloud };
}

function reservedClass(
  terms: CapacityReservationSelectorTerm[] = [{ id: 'cr-0a1a1a1a1a1a1a1a1' }],
) {
  return aNodeClass({
    instanceProfile: 'prod-nodes',
    role: undefined,
    capacityReservationSelectorTerms: terms,
  });
}

describe('selecting capacity reservations', () => {
  it.each([
    [
      'by id, without MaxResults',
      { id: 'cr-0a' },
      [{ Filters: [{ Name: 'state', Values: ['active'] }], CapacityReservationIds: ['cr-0a'] }],
    ],
    [
      'by tags, with * matching any value',
      { tags: { team: 'ml', 'karpenter.sh/discovery': '*' } },
      [
        {
          Filters: [
            { Name: 'state', Values: ['active'] },
            { Name: 'tag-key', Values: ['karpenter.sh/discovery'] },
            { Name: 'tag:team', Values: ['ml'] },
          ],
          MaxResults: 1000,
        },
      ],
    ],
    [
      'by tags and owner',
      { tags: { team: 'ml' }, ownerID: '012345678901' },
      [
        {
          Filters: [
            { Name: 'state', Values: ['active'] },
            { Name: 'owner-id', Values: ['012345678901'] },
            { Name: 'tag:team', Values: ['ml'] },
          ],
          MaxResults: 1000,
        },
      ],
    ],
    [
      'by instance match criteria',
      { instanceMatchCriteria: 'open' },
      [
        {
          Filters: [
            { Name: 'state', Values: ['active'] },
            { Name: 'instance-match-criteria', Values: ['open'] },
          ],
          MaxResults: 1000,
        },
      ],
    ],
  ] as const)('asks EC2 for active reservations %s', (_label, term, expected) => {
    // Act
    const queries = reservationQueries([term]);

    // Assess
    expect(queries).toEqual(expected);
  });

  it('records the reservations as the class status holds them, sorted and each once', async () => {
    // Prepare
    const block = aReservation({
      CapacityReservationId: 'cr-0b',
      ReservationType: 'capacity-block',
      EndDate: new Date(T0.getTime() + 60 * MINUTE),
      Interruptible: undefined,
    });
    const mocked = setUp([aReservation(), block, aReservation()]);

    // Act
    const resolved = await mocked.cloud.resolveNodeClass(
      reservedClass([{ id: 'cr-0a1a1a1a1a1a1a1a1' }, { instanceMatchCriteria: 'targeted' }]),
    );

    // Assess
    expect(resolved.capacityReservations).toEqual([
      {
        id: 'cr-0a1a1a1a1a1a1a1a1',
        instanceType: 'm5.large',
        availabilityZone: 'us-west-2a',
        ownerID: '012345678901',
        instanceMatchCriteria: 'targeted',
        reservationType: 'default',
        state: 'active',
        interruptible: false,
      },
      {
        id: 'cr-0b',
        instanceType: 'm5.large',
        availabilityZone: 'us-west-2a',
        ownerID: '012345678901',
        instanceMatchCriteria: 'targeted',
        reservationType: 'capacity-block',
        state: 'active',
        endTime: '2024-08-10T10:00:00Z',
        interruptible: false,
      },
    ]);
  });

  it('leaves out reservations past their end and kinds Karpenter does not know', async () => {
    // Prepare
    const mocked = setUp([
      aReservation({ CapacityReservationId: 'cr-ended', EndDate: new Date(T0.getTime() - 1) }),
      aReservation({
        CapacityReservationId: 'cr-future',
        InstanceMatchCriteria: 'future' as CapacityReservation['InstanceMatchCriteria'],
      }),
    ]);

    // Act
    const resolved = await mocked.cloud.resolveNodeClass(reservedClass([{ tags: { a: 'b' } }]));

    // Assess
    expect(resolved.capacityReservations).toEqual([]);
  });

  it.each([
    ['capacity block', 'capacity-block', 'expiring'],
    ['default reservation', 'default', 'active'],
  ] as const)('counts a %s ending in 40 minutes as %s', async (_label, type, state) => {
    // Prepare
    const ending = aReservation({
      ReservationType: type,
      EndDate: new Date(T0.getTime() + 40 * MINUTE),
    });
    const mocked = setUp([ending]);

    // Act
    const resolved = await mocked.cloud.resolveNodeClass(reservedClass());

    // Assess
    expect(resolved.capacityReservations[0]?.state).toBe(state);
  });

  it('reads every page and finds nothing for an id EC2 no longer knows', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock
      .on(DescribeCapacityReservationsCommand, { CapacityReservationIds: ['cr-gone'] })
      .rejects(ec2Error('InvalidCapacityReservationId.NotFound'));
    mocked.ec2Mock
      .on(DescribeCapacityReservationsCommand, { MaxResults: 1000 })
      .resolvesOnce({ CapacityReservations: [aReservation()], NextToken: 'page-2' })
      .resolvesOnce({ CapacityReservations: [aReservation({ CapacityReservationId: 'cr-0c' })] });

    // Act
    const resolved = await mocked.cloud.resolveNodeClass(
      reservedClass([{ id: 'cr-gone' }, { tags: { team: 'ml' } }]),
    );

    // Assess
    expect(resolved.capacityReservations.map((r) => r.id)).toEqual([
      'cr-0a1a1a1a1a1a1a1a1',
      'cr-0c',
    ]);
  });

  it('asks EC2 again only after a minute', async () => {
    // Prepare
    const mocked = setUp();
    await mocked.cloud.resolveNodeClass(reservedClass());

    // Act
    await mocked.cloud.resolveNodeClass(reservedClass());
    mocked.clock.advance(MINUTE + 1);
    await mocked.cloud.resolveNodeClass(reservedClass());

    // Assess
    expect(mocked.ec2Mock.commandCalls(DescribeCapacityReservationsCommand)).toHaveLength(2);
  });
});

describe('offering and launching into reservations', () => {
  async function reservedOffering(mocked: ReturnType<typeof setUp>) {
    const types = await mocked.cloud.instanceTypes(reservedClass());
    const m5 = types.find((it) => it.name === 'm5.large');
    return m5?.offerings.find((o) => o.capacityType === 'reserved');
  }

  function aReservedClaim() {
    return aClaim({
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['reserved'] },
        {
          key: 'karpenter.k8s.aws/capacity-reservation-id',
          operator: 'In',
          values: ['cr-0a1a1a1a1a1a1a1a1'],
        },
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] },
      ],
      instanceTypeOptions: ['m5.large'],
      offering: {
        instanceType: 'm5.large',
        zone: 'us-west-2a',
        capacityType: 'reserved',
        pricePerHour: 0,
      },
    });
  }

  function fleetLaunched(): Omit<CreateFleetCommandOutput, '$metadata'> {
    return {
      Instances: [
        {
          LaunchTemplateAndOverrides: {
            Overrides: {
              InstanceType: 'm5.large',
              SubnetId: 'subnet-0a2a2a2a2a2a2a2a2',
              AvailabilityZone: 'us-west-2a',
            },
          },
          Lifecycle: 'on-demand',
          InstanceIds: ['i-0123456789abcdef0'],
          InstanceType: 'm5.large',
        },
      ],
    };
  }

  it('offers a reservation with the instances EC2 says it has free', async () => {
    // Prepare
    const mocked = setUp([aReservation({ AvailableInstanceCount: 2 })]);

    // Act
    const offering = await reservedOffering(mocked);

    // Assess
    expect(offering).toMatchObject({
      zone: 'us-west-2a',
      reservationId: 'cr-0a1a1a1a1a1a1a1a1',
      reservationCapacity: 2,
      available: true,
    });
  });

  it('launches into the reservation through a template that targets it, and counts the launch', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(CreateFleetCommand).resolves(fleetLaunched());
    const nodeClass = reservedClass();
    const instanceTypes = await mocked.cloud.instanceTypes(nodeClass);

    // Act
    const instance = await mocked.cloud.launch(
      aReservedClaim(),
      aLaunchContext({ nodeClass, instanceTypes }),
    );

    // Assess
    const [template] = mocked.ec2Mock.commandCalls(CreateLaunchTemplateCommand);
    expect(template?.args[0].input.LaunchTemplateData).toMatchObject({
      CapacityReservationSpecification: {
        CapacityReservationPreference: 'capacity-reservations-only',
        CapacityReservationTarget: { CapacityReservationId: 'cr-0a1a1a1a1a1a1a1a1' },
      },
    });
    expect(template?.args[0].input.LaunchTemplateData?.InstanceMarketOptions).toBeUndefined();
    const [fleet] = mocked.ec2Mock.commandCalls(CreateFleetCommand);
    expect(fleet?.args[0].input).toMatchObject({
      TargetCapacitySpecification: { DefaultTargetCapacityType: 'on-demand' },
      OnDemandOptions: { AllocationStrategy: 'lowest-price' },
    });
    expect(instance).toMatchObject({
      capacityType: 'reserved',
      network: { capacityReservationId: 'cr-0a1a1a1a1a1a1a1a1' },
    });
    expect((await reservedOffering(mocked))?.reservationCapacity).toBe(1);
  });

  it('asks for a capacity block in its own market', async () => {
    // Prepare
    const block = aReservation({
      ReservationType: 'capacity-block',
      EndDate: new Date(T0.getTime() + 10 * 60 * MINUTE),
    });
    const mocked = setUp([block]);
    mocked.ec2Mock.on(CreateFleetCommand).resolves(fleetLaunched());
    const nodeClass = reservedClass();
    const instanceTypes = await mocked.cloud.instanceTypes(nodeClass);

    // Act
    await mocked.cloud.launch(aReservedClaim(), aLaunchContext({ nodeClass, instanceTypes }));

    // Assess
    const [template] = mocked.ec2Mock.commandCalls(CreateLaunchTemplateCommand);
    expect(template?.args[0].input.LaunchTemplateData?.InstanceMarketOptions).toEqual({
      MarketType: 'capacity-block',
    });
    const [fleet] = mocked.ec2Mock.commandCalls(CreateFleetCommand);
    expect(fleet?.args[0].input.TargetCapacitySpecification?.DefaultTargetCapacityType).toBe(
      'capacity-block',
    );
    expect(fleet?.args[0].input.OnDemandOptions).toBeUndefined();
  });

  it('names the reservation EC2 found full, and offers nothing more of it until it is described again', async () => {
    // Prepare
    const mocked = setUp();
    mocked.ec2Mock.on(CreateFleetCommand).resolves({
      Errors: [
        {
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm5.large', AvailabilityZone: 'us-west-2a' },
          },
          Lifecycle: 'on-demand',
          ErrorCode: 'ReservationCapacityExceeded',
          ErrorMessage: 'The reservation has no capacity left',
        },
      ],
    });
    const nodeClass = reservedClass();
    const instanceTypes = await mocked.cloud.instanceTypes(nodeClass);

    // Act
    const error = await mocked.cloud
      .launch(aReservedClaim(), aLaunchContext({ nodeClass, instanceTypes }))
      .catch((err: unknown) => err);

    // Assess
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect((error as InsufficientCapacityError).offerings).toEqual([
      {
        instanceType: 'm5.large',
        zone: 'us-west-2a',
        capacityType: 'reserved',
        reservationId: 'cr-0a1a1a1a1a1a1a1a1',
      },
    ]);
    expect(await reservedOffering(mocked)).toMatchObject({
      reservationCapacity: 0,
      available: false,
    });
  });
});
