import { describe, expect, it } from 'vitest';
import type { CapacityReservation } from '../../../functions/domain/capacity-reservation.ts';
import { reservationState } from '../../../functions/domain/capacity-reservation.ts';
import { expiringCapacityBlockClaims } from '../../../functions/domain/lifecycle/capacity-block-expiration.ts';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';

function aClaimRecord(name: string): NodeClaimRecord {
  return { ...aNewNodeClaim({ name }), version: 1 };
}

const BLOCK: CapacityReservation = {
  id: 'cr-block',
  instanceType: 'p5.48xlarge',
  availabilityZone: 'us-east-1a',
  ownerID: '012345678901',
  instanceMatchCriteria: 'targeted',
  reservationType: 'capacity-block',
  state: 'expiring',
  endTime: '2026-03-01T12:00:00Z',
};

function aClassWith(...capacityReservations: CapacityReservation[]): EC2NodeClass {
  return { metadata: { name: 'default' }, spec: {}, status: { capacityReservations } };
}

function inReservation(name: string, id: string, extra: Partial<NodeClaimRecord> = {}) {
  const network = { subnetId: 'subnet-a', securityGroupIds: [], capacityReservationId: id };
  return { ...aClaimRecord(name), network, ...extra };
}

// Ported from aws: pkg/controllers/capacityreservation/expiration/suite_test.go and
// pkg/apis/v1 CapacityReservationFromEC2 (v1.14.1).
describe('capacity block expiration', () => {
  it.each([
    ['a capacity block 41 minutes before its end', 'capacity-block', 41, 'active'],
    ['a capacity block 40 minutes before its end', 'capacity-block', 40, 'expiring'],
    ['a default reservation 10 minutes before its end', 'default', 10, 'active'],
  ] as const)('counts %s as %s', (_label, reservationType, minutes, state) => {
    // Prepare
    const end = new Date('2026-03-01T12:00:00Z');
    const now = new Date(end.getTime() - minutes * 60_000);

    // Act
    const found = reservationState({ reservationType, endTime: end.toISOString() }, now);

    // Assess
    expect(found).toBe(state);
  });

  it('lets go the claims in an expiring capacity block, and only those', () => {
    // Prepare
    const claims = [
      inReservation('in-block', 'cr-block'),
      inReservation('in-odcr', 'cr-odcr'),
      { ...aClaimRecord('on-demand') },
    ];
    const classes = [aClassWith(BLOCK, { ...BLOCK, id: 'cr-odcr', state: 'active' })];

    // Act
    const expiring = expiringCapacityBlockClaims(claims, classes);

    // Assess
    expect(expiring).toEqual([
      { claim: claims[0], message: 'capacity block cr-block ends at 2026-03-01T12:00:00Z' },
    ]);
  });

  it('leaves a claim already going', () => {
    // Prepare
    const going = inReservation('in-block', 'cr-block', {
      phase: 'Draining',
      disruption: { reason: 'Drifted', message: 'x', decidedAt: '2026-03-01T11:00:00Z' },
    });

    // Act
    const expiring = expiringCapacityBlockClaims([going], [aClassWith(BLOCK)]);

    // Assess
    expect(expiring).toEqual([]);
  });
});
