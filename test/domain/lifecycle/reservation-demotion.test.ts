/**
 * Demotion of reserved claims whose reservation ended, ported from aws:
 * pkg/controllers/capacityreservation/capacitytype/suite_test.go (v1.14.1): while the instance is
 * listed in its reservation nothing changes; once EC2 lists it on-demand, the claim and its Node
 * become on-demand without the reservation labels, and a Node still labelled reserved is relabelled
 * even when its claim was demoted before. The demoted claim is priced as its type's on-demand
 * offering in its zone, as core: disruption/types.go `resolveNodePrice` prices a node by its labels.
 */
import { describe, expect, it } from 'vitest';
import {
  type CloudInstance,
  lifecycleActions,
} from '../../../functions/domain/lifecycle/lifecycle.ts';
import {
  demotedClaim,
  demotionLabels,
} from '../../../functions/domain/lifecycle/reservation-demotion.ts';
import type { Node } from '../../../functions/domain/node.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import { aNewNodeClaim, T0 } from '../../contracts/state-fixtures.ts';
import { aNode, anInstanceType } from '../../support/builders.ts';

const PROVIDER = 'aws:///us-east-1a/i-0123456789abcdef0';
const RESERVATION = 'cr-foo';

/** The pool's m5.large, $0.096 an hour on-demand in us-east-1a and $0.1 in us-east-1b. */
const M5_LARGE = anInstanceType({
  name: 'm5.large',
  cpu: 2,
  memoryGiB: 8,
  price: 0.096,
  zones: ['us-east-1a'],
  capacityTypes: ['on-demand'],
});
const POOL_TYPES = [
  {
    ...M5_LARGE,
    offerings: [
      {
        zone: 'us-east-1b',
        capacityType: 'on-demand' as const,
        pricePerHour: 0.1,
        available: true,
      },
      ...M5_LARGE.offerings,
    ],
  },
];

function demoted(claim: NodeClaimRecord): NodeClaimRecord {
  return demotedClaim(claim, POOL_TYPES);
}

const RESERVED_LABELS = {
  'karpenter.sh/capacity-type': 'reserved',
  'karpenter.k8s.aws/capacity-reservation-id': RESERVATION,
  'karpenter.k8s.aws/capacity-reservation-type': 'default',
  'karpenter.k8s.aws/capacity-reservation-interruptible': 'false',
};

function reservedClaim(overrides: Partial<NodeClaimRecord> = {}): NodeClaimRecord {
  return {
    ...aNewNodeClaim({
      offering: {
        instanceType: 'm5.large',
        zone: 'us-east-1a',
        capacityType: 'reserved',
        pricePerHour: 0.096 / 10_000_000,
      },
      labels: { 'karpenter.sh/nodepool': 'default', ...RESERVED_LABELS },
    }),
    version: 1,
    phase: 'Initialized',
    instanceId: 'i-0123456789abcdef0',
    providerID: PROVIDER,
    nodeName: 'ip-10-0-1-7.ec2.internal',
    network: {
      subnetId: 'subnet-1a',
      securityGroupIds: ['sg-nodes'],
      capacityReservationId: RESERVATION,
    },
    timestamps: { Pending: T0.toISOString(), Launched: T0.toISOString() },
    ...overrides,
  };
}

function listedAs(capacityType: CloudInstance['capacityType']): CloudInstance {
  return {
    instanceId: 'i-0123456789abcdef0',
    providerID: PROVIDER,
    instanceType: 'm5.large',
    zone: 'us-east-1a',
    capacityType,
    launchTime: T0.toISOString(),
    nodeClaim: 'default-abc12',
    owned: true,
  };
}

/** Its registered, initialized Node, labelled as the claim launched it. */
function reservedNode(overrides: Partial<Node> = {}): Node {
  const node = aNode({ name: 'ip-10-0-1-7.ec2.internal' });
  return {
    ...node,
    providerID: PROVIDER,
    finalizers: [TERMINATION_FINALIZER],
    labels: {
      ...node.labels,
      ...RESERVED_LABELS,
      'karpenter.sh/registered': 'true',
      'karpenter.sh/initialized': 'true',
    },
    ...overrides,
  };
}

function actionsFor(claim: NodeClaimRecord, instance: CloudInstance, nodes: Node[]) {
  return lifecycleActions({ claims: [claim], nodes, instances: [instance], now: T0 });
}

describe('demoting a reserved claim whose reservation ended', () => {
  it('leaves the claim and its node reserved while the instance is listed in the reservation', () => {
    // Act
    const actions = actionsFor(reservedClaim(), listedAs('reserved'), [reservedNode()]);

    // Assess
    expect(actions).toEqual([]);
  });

  it('demotes the claim and its node to on-demand once the instance is listed on-demand', () => {
    // Prepare
    const claim = reservedClaim();
    const node = reservedNode();

    // Act
    const actions = actionsFor(claim, listedAs('on-demand'), [node]);

    // Assess
    expect(actions).toEqual([{ kind: 'Demote', claim, node }]);
    expect(demotionLabels()).toEqual({
      'karpenter.sh/capacity-type': 'on-demand',
      'karpenter.k8s.aws/capacity-reservation-id': null,
      'karpenter.k8s.aws/capacity-reservation-type': null,
      'karpenter.k8s.aws/capacity-reservation-interruptible': null,
    });
    const onDemand = demoted(claim);
    expect(onDemand.offering).toEqual({
      instanceType: 'm5.large',
      zone: 'us-east-1a',
      capacityType: 'on-demand',
      pricePerHour: 0.096,
    });
    expect(onDemand.labels).toEqual({
      'karpenter.sh/nodepool': 'default',
      'karpenter.sh/capacity-type': 'on-demand',
    });
    expect(onDemand.network).toEqual({ subnetId: 'subnet-1a', securityGroupIds: ['sg-nodes'] });
  });

  it('demotes a node even when its claim was demoted before', () => {
    // Prepare
    const claim = demoted(reservedClaim());
    const node = reservedNode();

    // Act
    const actions = actionsFor(claim, listedAs('on-demand'), [node]);

    // Assess
    expect(actions).toEqual([{ kind: 'Demote', claim, node }]);
  });

  it.each([
    ['the claim is already going', reservedClaim({ phase: 'Draining' }), [reservedNode()], []],
    [
      'the claim and its node are on-demand already',
      demoted(reservedClaim()),
      [reservedNode({ labels: { 'karpenter.sh/capacity-type': 'on-demand' } })],
      [],
    ],
  ] as const)('does nothing when %s', (_label, claim, nodes, expected) => {
    // Act
    const actions = actionsFor(claim, listedAs('on-demand'), [...nodes]);

    // Assess
    expect(actions).toEqual(expected);
  });

  it('demotes the claim alone while its node is not registered or is being deleted', () => {
    // Prepare
    const claim = reservedClaim();
    const unregistered = reservedNode({ labels: { ...RESERVED_LABELS } });
    const deleting = reservedNode({ deleting: true, finalizers: [] });

    // Act
    const beforeRegistration = actionsFor(claim, listedAs('on-demand'), [unregistered]);
    const whileDeleted = actionsFor(claim, listedAs('on-demand'), [deleting]);

    // Assess
    expect(beforeRegistration).toEqual([{ kind: 'Demote', claim }]);
    expect(whileDeleted).toEqual([{ kind: 'Demote', claim }]);
  });

  it('prices a claim whose type its pool no longer lists back from the reserved price', () => {
    // Act
    const onDemand = demotedClaim(reservedClaim(), []);

    // Assess
    expect(onDemand.offering.capacityType).toBe('on-demand');
    expect(onDemand.offering.pricePerHour).toBeCloseTo(0.096, 12);
  });

  it('never promotes an on-demand claim the cloud lists as reserved', () => {
    // Prepare
    const claim = demoted(reservedClaim());

    // Act
    const actions = actionsFor(claim, listedAs('reserved'), [reservedNode()]);

    // Assess
    expect(actions).toEqual([]);
  });
});
