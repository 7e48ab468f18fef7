import { describe, expect, it } from 'vitest';
import type { CapacityReservation } from '../../../functions/domain/capacity-reservation.ts';
import { instanceTypeLabels } from '../../../functions/domain/instance-type.ts';
import { offeringKey } from '../../../functions/domain/instance-types/offerings.ts';
import { Label } from '../../../functions/domain/labels.ts';
import { aNodeClass, buildOne, labelsOf } from './builders.ts';

/** An ODCR of m5.large in us-east-1a, as the class's status records it. */
function aReservation(overrides: Partial<CapacityReservation> = {}): CapacityReservation {
  return {
    id: 'cr-m5-1a',
    instanceType: 'm5.large',
    availabilityZone: 'us-east-1a',
    ownerID: '012345678901',
    instanceMatchCriteria: 'targeted',
    reservationType: 'default',
    state: 'active',
    ...overrides,
  };
}

function reservedOf(name: string, reservations: Parameters<typeof buildOne>[1]) {
  return buildOne(name, reservations).offerings.filter((o) => o.capacityType === 'reserved');
}

// Ported from aws: pkg/providers/instancetype/suite_test.go and
// offering/reserved_capacity_resolver.go (v1.14.1).
describe('reserved offerings', () => {
  it('offers each reservation of the type once, priced as already paid for', () => {
    // Prepare
    const reservations = [{ reservation: aReservation(), availableCount: 3 }];

    // Act
    const reserved = reservedOf('m5.large', { reservations });

    // Assess
    expect(reserved).toEqual([
      {
        zone: 'us-east-1a',
        capacityType: 'reserved',
        pricePerHour: 0.096 / 10_000_000,
        available: true,
        reservationId: 'cr-m5-1a',
        reservationType: 'default',
        reservationInterruptible: false,
        reservationCapacity: 3,
      },
    ]);
  });

  it('offers nothing reserved for a type without a reservation', () => {
    // Prepare
    const reservations = [{ reservation: aReservation(), availableCount: 3 }];

    // Act
    const reserved = reservedOf('c5.large', { reservations });

    // Assess
    expect(reserved).toEqual([]);
  });

  it.each([
    ['no instance is left', { availableCount: 0 }, {}],
    [
      'the capacity block is expiring',
      {},
      { reservationType: 'capacity-block', state: 'expiring' },
    ],
    ['its zone has no subnet of the class', {}, { availabilityZone: 'us-east-1d' }],
  ] as const)('marks the offering unavailable when %s', (_label, count, overrides) => {
    // Prepare
    const reservations = [{ reservation: aReservation(overrides), availableCount: 1, ...count }];

    // Act
    const [offering] = reservedOf('m5.large', { reservations });

    // Assess
    expect(offering?.available).toBe(false);
  });

  // aws: instance/suite_test.go "should return an ICE error when all attempted instance types
  // return a ReservedCapacityReservation error": the reservation is marked, not the offering.
  it('marks unavailable only the reservation EC2 found full, not another of the type in its zone', () => {
    // Prepare
    const reservations = [
      { reservation: aReservation(), availableCount: 2 },
      { reservation: aReservation({ id: 'cr-m5-1a-2' }), availableCount: 2 },
    ];
    const unavailable = new Set([offeringKey('m5.large', 'us-east-1a', 'reserved', 'cr-m5-1a')]);

    // Act
    const reserved = reservedOf('m5.large', { reservations, unavailable });

    // Assess
    expect(reserved.map((o) => [o.reservationId, o.available])).toEqual([
      ['cr-m5-1a', false],
      ['cr-m5-1a-2', true],
    ]);
  });

  it('leaves reserved offerings available when the type and zone are out of on-demand or spot', () => {
    // Prepare
    const reservations = [{ reservation: aReservation(), availableCount: 2 }];
    const unavailable = new Set([
      offeringKey('m5.large', 'us-east-1a', 'on-demand'),
      offeringKey('m5.large', 'us-east-1a', 'spot'),
    ]);

    // Act
    const [offering] = reservedOf('m5.large', { reservations, unavailable });

    // Assess
    expect(offering?.available).toBe(true);
  });

  it('takes the reservations of the class status, uncounted, when none are given', () => {
    // Prepare
    const nodeClass = {
      ...aNodeClass(),
      status: { capacityReservations: [aReservation({ reservationType: 'capacity-block' })] },
    };

    // Act
    const [offering] = reservedOf('m5.large', { nodeClass });

    // Assess
    expect(offering).toMatchObject({ available: true, reservationType: 'capacity-block' });
    expect(offering?.reservationCapacity).toBeUndefined();
  });

  it('adds reserved and the reservations to the type requirements, and no label to the type', () => {
    // Prepare
    const reservations = [
      { reservation: aReservation(), availableCount: 1 },
      {
        reservation: aReservation({
          id: 'cr-m5-1b',
          availabilityZone: 'us-east-1b',
          interruptible: true,
        }),
        availableCount: 1,
      },
    ];

    // Act
    const m5 = buildOne('m5.large', { reservations });

    // Assess
    const labels = labelsOf(m5.requirements);
    expect(labels[Label.capacityType]).toEqual(['on-demand', 'reserved', 'spot']);
    expect(labels[Label.capacityReservationId]).toEqual(['cr-m5-1a', 'cr-m5-1b']);
    expect(labels[Label.capacityReservationType]).toEqual(['default']);
    expect(labels[Label.capacityReservationInterruptible]).toEqual(['false', 'true']);
    expect(instanceTypeLabels(m5)).not.toHaveProperty(Label.capacityReservationType);
  });

  it('leaves the reservation labels absent on a type without reservations', () => {
    // Act
    const c5 = buildOne('c5.large', { reservations: [{ reservation: aReservation() }] });

    // Assess
    const labels = labelsOf(c5.requirements);
    expect(labels[Label.capacityType]).toEqual(['on-demand', 'spot']);
    expect(labels[Label.capacityReservationId]).toBe('DoesNotExist');
  });
});
