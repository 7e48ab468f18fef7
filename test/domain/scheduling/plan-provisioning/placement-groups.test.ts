/**
 * EC2's placement group rules kept by the plan (EC2 User Guide, "Placement strategies"; aws:
 * designs/placement-groups-support.md, "Strategy-Specific Limitations"): a cluster group runs in
 * one zone, a spread group at most seven instances per zone. Karpenter learns both from
 * CreateFleet's errors; Nodesmith plans no claim EC2 would refuse, and says why.
 */
import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import type { PlacementGroup } from '../../../../functions/domain/placement-group.ts';
import type { ProvisioningPlan } from '../../../../functions/domain/scheduling/provisioning-plan.ts';
import { anInstanceType, aPod, inPlacementGroup } from '../../../support/builders.ts';
import {
  aManagedNode,
  anAffinityTerm,
  anInFlightNodeClaim,
  appPods,
  planFor,
  podAntiAffinity,
} from '../../../support/scheduling-builders.ts';

const CLUSTER: PlacementGroup = { id: 'pg-0c1', name: 'mpi', strategy: 'cluster' };
const SPREAD: PlacementGroup = {
  id: 'pg-0s1',
  name: 'etcd',
  strategy: 'spread',
  spreadLevel: 'rack',
};

/** A 4 vCPU type of a class in `group`. */
const inGroup = (group: PlacementGroup) =>
  inPlacementGroup(anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }), group);

/** `count` pods that each need a node of their own. */
const loners = (count: number) =>
  appPods('loner', count, {
    cpu: '1',
    affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'loner' })),
  });

/** A running node of the group in `zone`, kept for other pods (tainted). */
function member(group: PlacementGroup, zone: string, name: string) {
  return aManagedNode({
    name,
    zone,
    labels: { [Label.placementGroupId]: group.id },
    taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
  });
}

function membersOf(group: PlacementGroup, zone: string, count: number) {
  const made = Array.from({ length: count }, (_, i) => member(group, zone, `${zone}-${i}`));
  return { nodes: made.map((m) => m.node), nodeClaims: made.map((m) => m.nodeClaim) };
}

const zonesOf = (plan: ProvisioningPlan) => plan.nodeClaims.map((c) => c.offering.zone).sort();

describe('planning a cluster placement group', () => {
  it('plans every claim of an empty group into one zone, each pinned to it', () => {
    // Act
    const plan = planFor({ pods: loners(3), catalog: [inGroup(CLUSTER)] });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-a', 'test-zone-a', 'test-zone-a']);
    for (const claim of plan.nodeClaims)
      expect(claim.requirements.get(Label.zone)?.values).toEqual(new Set(['test-zone-a']));
  });

  it('plans a group already running into the zone it runs in', () => {
    // Prepare
    const running = membersOf(CLUSTER, 'test-zone-b', 1);

    // Act
    const plan = planFor({ pods: loners(2), catalog: [inGroup(CLUSTER)], ...running });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-b', 'test-zone-b']);
  });

  it('counts a claim whose node has not joined yet where it was planned', () => {
    // Prepare
    const launching = anInFlightNodeClaim({ name: 'default-0', zone: 'test-zone-c' });
    const labels = { ...launching.metadata.labels, [Label.placementGroupId]: CLUSTER.id };
    const nodeClaims = [{ ...launching, metadata: { ...launching.metadata, labels } }];

    // Act
    const plan = planFor({ pods: loners(2), catalog: [inGroup(CLUSTER)], nodeClaims });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-c']);
  });

  it('plans no claim a pod needs in another zone than the group’s, and says why', () => {
    // Prepare
    const running = membersOf(CLUSTER, 'test-zone-b', 1);
    const pod = aPod({ name: 'elsewhere', nodeSelector: { [Label.zone]: 'test-zone-a' } });

    // Act
    const plan = planFor({ pods: [pod], catalog: [inGroup(CLUSTER)], ...running });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reasons).toEqual([
      {
        nodePool: 'default',
        code: 'PlacementGroup',
        message:
          'placement group "mpi" (pg-0c1) is a cluster group running in test-zone-b, and a cluster group does not span zones',
      },
    ]);
  });
});

describe('planning a spread placement group', () => {
  it('plans no more than seven instances of the group into a zone', () => {
    // Prepare: six running in test-zone-a
    const running = membersOf(SPREAD, 'test-zone-a', 6);

    // Act
    const plan = planFor({ pods: loners(3), catalog: [inGroup(SPREAD)], ...running });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-a', 'test-zone-b', 'test-zone-b']);
  });

  it('plans nothing into a full zone a pod needs, and says why', () => {
    // Prepare
    const running = membersOf(SPREAD, 'test-zone-a', 7);
    const pod = aPod({ name: 'pinned', nodeSelector: { [Label.zone]: 'test-zone-a' } });

    // Act
    const plan = planFor({ pods: [pod], catalog: [inGroup(SPREAD)], ...running });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toBe(
      'nodepool "default": placement group "etcd" (pg-0s1) is a spread group with 7 instances in test-zone-a, the most EC2 runs in a zone',
    );
  });

  it('leaves a host-level spread group (Outposts) to EC2', () => {
    // Prepare
    const hostLevel: PlacementGroup = { ...SPREAD, spreadLevel: 'host' };
    const running = membersOf(hostLevel, 'test-zone-a', 7);

    // Act
    const plan = planFor({ pods: loners(1), catalog: [inGroup(hostLevel)], ...running });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-a']);
  });
});
