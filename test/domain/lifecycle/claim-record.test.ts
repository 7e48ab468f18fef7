/**
 * Records provisioning writes: the intent before a launch carries everything a later pass needs
 * to launch it again or count it as capacity; the launched record describes the offering EC2
 * actually filled.
 */
import { describe, expect, it } from 'vitest';
import {
  launchedClaimRecord,
  pendingClaimRecord,
} from '../../../functions/domain/lifecycle/claim-record.ts';
import { planningClaim } from '../../../functions/domain/lifecycle/planning-claim.ts';
import { parseResources } from '../../../functions/domain/resources.ts';
import { T0 } from '../../contracts/state-fixtures.ts';
import { aNodePool, anInstanceType, aPod, instanceTypesFor } from '../../support/builders.ts';
import { planFor } from '../../support/scheduling-builders.ts';

const small = anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1, arch: 'arm64' });
const large = anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.15 });

function planned() {
  const pools = [aNodePool({ name: 'default' })];
  const plan = planFor({
    pods: [aPod({ name: 'web-1', cpu: '1', memory: '1Gi' })],
    nodePools: pools,
    instanceTypes: instanceTypesFor(pools, [small, large]),
  });
  const [claim] = plan.nodeClaims;
  if (claim === undefined) throw new Error('planning a claim: none planned');
  return claim;
}

describe('the claim written before a launch', () => {
  it('keeps the options, the cheapest offering, labels, taints and the predicted capacity', () => {
    const record = pendingClaimRecord(planned(), 'default-x7k2p', T0);
    expect(record).toMatchObject({
      name: 'default-x7k2p',
      nodePool: 'default',
      instanceTypeOptions: ['m.large', 'c.xlarge'],
      offering: { instanceType: 'm.large', capacityType: 'spot' },
      phase: 'Pending',
      timestamps: { Pending: T0.toISOString() },
      capacity: small.capacity,
      allocatable: small.allocatable,
    });
    expect(record.labels?.['karpenter.sh/nodepool']).toBe('default');
    expect(record.requirements).toContainEqual({
      key: 'node.kubernetes.io/instance-type',
      operator: 'In',
      values: ['m.large', 'c.xlarge'],
    });
  });

  it('stands in for its node as capacity, in the quantities the scheduler reads', () => {
    const record = { ...pendingClaimRecord(planned(), 'default-x7k2p', T0), version: 1 };
    const claim = planningClaim(record);
    expect(parseResources(claim.status?.allocatable)).toEqual(small.allocatable);
    expect(claim.status?.conditions).toEqual([]);
    expect(claim.metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('the claim once launched', () => {
  it('describes the offering EC2 filled, with that type’s labels and capacity', () => {
    const record = { ...pendingClaimRecord(planned(), 'default-x7k2p', T0), version: 1 };
    const later = new Date(T0.getTime() + 2000);
    const launched = launchedClaimRecord(
      record,
      {
        instanceId: 'i-0123456789abcdef0',
        providerID: 'aws:///test-zone-b/i-0123456789abcdef0',
        instanceType: 'c.xlarge',
        zone: 'test-zone-b',
        capacityType: 'spot',
      },
      [small, large],
      later,
    );
    expect(launched).toMatchObject({
      phase: 'Launched',
      instanceId: 'i-0123456789abcdef0',
      offering: { instanceType: 'c.xlarge', zone: 'test-zone-b', pricePerHour: 0.06 },
      capacity: large.capacity,
      timestamps: { Pending: T0.toISOString(), Launched: later.toISOString() },
    });
    expect(launched.labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'c.xlarge',
      'topology.kubernetes.io/zone': 'test-zone-b',
      'kubernetes.io/arch': 'amd64',
      'karpenter.k8s.aws/instance-cpu': '4',
    });
  });

  it('records the AMI, subnet and security groups the instance was launched with', () => {
    // Prepare
    const record = { ...pendingClaimRecord(planned(), 'default-x7k2p', T0), version: 1 };
    const network = { subnetId: 'subnet-0b', securityGroupIds: ['sg-nodes', 'sg-cluster'] };

    // Act
    const launched = launchedClaimRecord(
      record,
      {
        instanceId: 'i-0123456789abcdef0',
        providerID: 'aws:///test-zone-b/i-0123456789abcdef0',
        instanceType: 'm.large',
        zone: 'test-zone-b',
        capacityType: 'spot',
        imageId: 'ami-0123',
        network,
      },
      [small, large],
      T0,
    );

    // Assess
    expect(launched).toMatchObject({ imageId: 'ami-0123', network });
  });

  it('labels a node launched into a reservation with it, and no other node', () => {
    // Prepare
    const reserved = {
      zone: 'test-zone-a',
      capacityType: 'reserved' as const,
      pricePerHour: 0,
      available: true,
      reservationId: 'cr-0a',
      reservationType: 'capacity-block' as const,
      reservationInterruptible: false,
    };
    const types = [{ ...small, offerings: [...small.offerings, reserved] }, large];
    const record = { ...pendingClaimRecord(planned(), 'default-x7k2p', T0), version: 1 };
    const launch = {
      instanceId: 'i-0123456789abcdef0',
      providerID: 'aws:///test-zone-a/i-0123456789abcdef0',
      instanceType: 'm.large',
      zone: 'test-zone-a',
    };
    const network = { subnetId: 'subnet-0a', securityGroupIds: [], capacityReservationId: 'cr-0a' };

    // Act
    const inReservation = launchedClaimRecord(
      record,
      { ...launch, capacityType: 'reserved', network },
      types,
      T0,
    );
    const fellBack = launchedClaimRecord(
      { ...record, labels: inReservation.labels ?? {} },
      { ...launch, capacityType: 'on-demand' },
      types,
      T0,
    );

    // Assess
    expect(inReservation.labels).toMatchObject({
      'karpenter.sh/capacity-type': 'reserved',
      'karpenter.k8s.aws/capacity-reservation-id': 'cr-0a',
      'karpenter.k8s.aws/capacity-reservation-type': 'capacity-block',
      'karpenter.k8s.aws/capacity-reservation-interruptible': 'false',
    });
    expect(fellBack.labels).not.toHaveProperty('karpenter.k8s.aws/capacity-reservation-id');
    expect(fellBack.labels).not.toHaveProperty('karpenter.k8s.aws/capacity-reservation-type');
  });
});
