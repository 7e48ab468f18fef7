import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { podKey } from '../../../../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../../../../functions/domain/requirements/requirement.ts';
import type { ProvisioningPlan } from '../../../../functions/domain/scheduling/provisioning-plan.ts';
import { aNodePool, anInstanceType, aPod, withReservations } from '../../../support/builders.ts';
import { anAffinityTerm, planFor, podAntiAffinity } from '../../../support/scheduling-builders.ts';

const RESERVED_TOO: NodeSelectorRequirement = {
  key: Label.capacityType,
  operator: 'In',
  values: ['reserved', 'on-demand'],
};

const small = () => anInstanceType({ name: 'small', cpu: 2, memoryGiB: 2, price: 0.1 });
const medium = () => anInstanceType({ name: 'medium', cpu: 3, memoryGiB: 3, price: 0.15 });

/** Pods that each need a node of their own. */
function spreadPods(count: number, nodeSelector: Record<string, string> = {}) {
  return Array.from({ length: count }, () =>
    aPod({
      cpu: '1',
      labels: { app: 'spread' },
      nodeSelector,
      affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'spread' })),
    }),
  );
}

function reservationsOf(plan: ProvisioningPlan): (string | undefined)[] {
  return plan.nodeClaims.map((claim) => claim.labels[Label.capacityReservationId]).sort();
}

// Adapted from core: pkg/controllers/provisioning/scheduling/suite_test.go, "Reserved Instance
// Types" (v1.14.1). Karpenter holds the pods a full reservation cannot take for its next loop;
// Nodesmith plans them on the next capacity type in the same pass (docs/scheduling.md).
describe('planning reserved capacity', () => {
  it('plans reserved capacity first and labels the node with its reservation', () => {
    // Prepare
    const catalog = [withReservations(small(), ['cr-small', 1]), medium()];
    const pod = aPod({ cpu: '1' });

    // Act
    const plan = planFor({
      pods: [pod],
      nodePools: [aNodePool({ requirements: [RESERVED_TOO] })],
      catalog,
    });

    // Assess
    const [claim] = plan.nodeClaims;
    expect(claim?.offering).toMatchObject({ capacityType: 'reserved', reservationId: 'cr-small' });
    expect(claim?.labels).toMatchObject({
      [Label.capacityType]: 'reserved',
      [Label.capacityReservationId]: 'cr-small',
      [Label.capacityReservationType]: 'default',
      [Label.capacityReservationInterruptible]: 'false',
    });
    expect(claim?.requirements.get(Label.capacityReservationId)?.values).toEqual(
      new Set(['cr-small']),
    );
  });

  it('fills no reservation past what it can take, and plans the rest on-demand', () => {
    // Prepare
    const catalog = [
      withReservations(small(), ['cr-small', 1]),
      withReservations(medium(), ['cr-medium', 1]),
    ];

    // Act
    const plan = planFor({
      pods: spreadPods(3),
      nodePools: [aNodePool({ requirements: [RESERVED_TOO] })],
      catalog,
    });

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-medium', 'cr-small', undefined]);
    const onDemand = plan.nodeClaims.find((c) => c.offering.capacityType === 'on-demand');
    expect(onDemand?.labels).not.toHaveProperty(Label.capacityReservationId);
    expect(onDemand?.instanceType.name).toBe('small');
  });

  it('counts a reservation shared across NodePools once', () => {
    // Prepare
    const pools = ['np-1', 'np-2'].map((name) => aNodePool({ name, requirements: [RESERVED_TOO] }));
    const pods = [
      ...spreadPods(1, { [Label.nodePool]: 'np-1' }),
      ...spreadPods(1, { [Label.nodePool]: 'np-2' }),
    ];

    // Act
    const plan = planFor({
      pods,
      nodePools: pools,
      catalog: [withReservations(small(), ['cr-small', 1])],
    });

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-small', undefined]);
  });

  it('keeps distinct reservations of the same type in two NodePools apart', () => {
    // Prepare
    const pools = ['np-1', 'np-2'].map((name) => aNodePool({ name, requirements: [RESERVED_TOO] }));
    const instanceTypes = new Map([
      ['np-1', [withReservations(small(), ['cr-one', 1])]],
      ['np-2', [withReservations(small(), ['cr-two', 1])]],
    ]);
    const pods = [
      ...spreadPods(1, { [Label.nodePool]: 'np-1' }),
      ...spreadPods(1, { [Label.nodePool]: 'np-2' }),
    ];

    // Act
    const plan = planFor({ pods, nodePools: pools, instanceTypes });

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-one', 'cr-two']);
  });

  it('fills several reservations of the same type to what each can take', () => {
    // Prepare
    const catalog = [withReservations(small(), ['cr-a', 1], ['cr-b', 2])];

    // Act
    const plan = planFor({
      pods: spreadPods(4),
      nodePools: [aNodePool({ requirements: [RESERVED_TOO] })],
      catalog,
    });

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-a', 'cr-b', 'cr-b', undefined]);
  });

  it('never plans reserved capacity for a pool that does not allow it', () => {
    // Prepare
    const catalog = [withReservations(small(), ['cr-small', 1])];

    // Act
    const plan = planFor({ pods: [aPod({ cpu: '1' })], catalog });

    // Assess
    expect(plan.nodeClaims[0]?.offering.capacityType).not.toBe('reserved');
  });

  it('offers a pod that asks for a reservation nothing else', () => {
    // Prepare
    const catalog = [withReservations(small(), ['cr-small', 0])];
    const pod = aPod({ cpu: '1', nodeSelector: { [Label.capacityReservationId]: 'cr-small' } });

    // Act
    const plan = planFor({
      pods: [pod],
      nodePools: [aNodePool({ requirements: [RESERVED_TOO] })],
      catalog,
    });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual([podKey(pod)]);
  });
});
