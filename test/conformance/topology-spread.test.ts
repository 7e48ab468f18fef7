/**
 * Topology spread as Karpenter's provisioner simulates it (core:
 * pkg/controllers/provisioning/scheduling/topology.go, topologygroup.go; cases from
 * topology_test.go).
 * Each case plans one fixture with the real command line.
 */
import { describe, expect, it } from 'vitest';
import {
  ARCH,
  CAPACITY_TYPE,
  claimOf,
  planOf,
  podNames,
  podsPerLabel,
  sortedCounts,
  unschedulablePods,
  ZONE,
} from './plan-cli.ts';

describe.concurrent('zonal topology spread', () => {
  it('balances pods across zones with matchLabels', async () => {
    // Prepare: four pods with a zonal spread (maxSkew 1) and three zones
    const fixture = 'zonal-spread-match-labels';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, ZONE))).toEqual([1, 1, 2]);
  });

  it('balances pods across zones with matchExpressions', async () => {
    // Prepare: as above, the selector written as matchExpressions
    const fixture = 'zonal-spread-match-expressions';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, ZONE))).toEqual([1, 1, 2]);
  });

  it('spreads only over the zones the NodePool requirements allow', async () => {
    // Prepare: the NodePool allows us-east-1a and us-east-1b
    const fixture = 'zonal-spread-pool-zone-requirement';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 2, 'us-east-1b': 2 });
  });

  it('spreads only over the zone the NodePool labels pin', async () => {
    // Prepare: the NodePool's template labels set topology.kubernetes.io/zone=us-east-1a
    const fixture = 'zonal-spread-pool-zone-label';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 4 });
  });

  it('spreads over the union of the zones of several NodePools', async () => {
    // Prepare: one NodePool pinned to us-east-1a, another to us-east-1b
    const fixture = 'zonal-spread-across-pools';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 2, 'us-east-1b': 2 });
    expect(plan.nodeClaims.map((c) => [c.nodePool, c.zone]).sort()).toEqual([
      ['zone-a', 'us-east-1a'],
      ['zone-b', 'us-east-1b'],
    ]);
  });

  it('counts a running pod in a zone the NodePool cannot launch into', async () => {
    // Prepare: one matching pod runs in us-east-1c, the NodePool allows us-east-1a and us-east-1b
    const fixture = 'zonal-spread-existing-pod-outside-pool-zones';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 2, 'us-east-1b': 2 });
    expect(unschedulablePods(plan)).toHaveLength(2);
  });

  it('fills the only launchable zone up to maxSkew above the others', async () => {
    // Prepare: one matching pod each in us-east-1a and us-east-1b, launches only in us-east-1c, maxSkew 5
    const fixture = 'zonal-spread-non-minimum-domain';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1c': 6 });
    expect(unschedulablePods(plan)).toHaveLength(4);
  });

  it('never exceeds maxSkew with DoNotSchedule', async () => {
    // Prepare: one matching pod in us-east-1a, launches only in us-east-1b and us-east-1c, ten pods
    const fixture = 'zonal-spread-max-skew-not-violated';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1b': 2, 'us-east-1c': 2 });
    expect(unschedulablePods(plan)).toHaveLength(6);
    for (const u of plan.unschedulable) expect(u.reason).toMatch(/topology/);
  });

  it('places pods only in the least loaded zones while the spread is skewed', async () => {
    // Prepare: three matching pods already run in us-east-1a, none elsewhere
    const fixture = 'zonal-spread-minimum-domains-when-skewed';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const zones = podsPerLabel(plan, ZONE);
    expect(zones['us-east-1a']).toBeUndefined();
    expect(sortedCounts(zones)).toEqual([1, 2]);
  });

  it('counts only running pods that match the selector on nodes with a zone label', async () => {
    // Prepare: 2 matching pods in us-east-1a, 1 in us-east-1b; us-east-1c holds only pods that must not count
    const fixture = 'zonal-spread-counts-only-scheduled-matching-pods';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1b': 1, 'us-east-1c': 2 });
  });

  it('treats the global minimum as zero while fewer zones than minDomains exist', async () => {
    // Prepare: minDomains 3, the NodePool allows two zones
    const fixture = 'zonal-spread-min-domains-unsatisfied';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 1, 'us-east-1b': 1 });
    expect(unschedulablePods(plan)).toHaveLength(1);
  });

  it('spreads as usual when minDomains is satisfied', async () => {
    // Prepare: minDomains 3, three zones, eleven pods
    const fixture = 'zonal-spread-min-domains-satisfied';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, ZONE))).toEqual([3, 4, 4]);
  });

  it('limits the zones of the spread by the pods nodeSelector', async () => {
    // Prepare: five pods select us-east-1a, ten select us-east-1b, all in one spread
    const fixture = 'zonal-spread-limited-by-node-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 5, 'us-east-1b': 10 });
  });

  it('limits the zones of the spread by required node affinity', async () => {
    // Prepare: six pods require us-east-1a or us-east-1b
    const fixture = 'zonal-spread-limited-by-required-node-affinity';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 3, 'us-east-1b': 3 });
  });

  it('does not limit the zones of the spread by preferred node affinity', async () => {
    // Prepare: six pods prefer us-east-1a or us-east-1b
    const fixture = 'zonal-spread-not-limited-by-preferred-node-affinity';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 2, 'us-east-1b': 2, 'us-east-1c': 2 });
  });

  it('counts only pods of the same revision with matchLabelKeys', async () => {
    // Prepare: three pods of the old revision run in us-east-1a; three new-revision pods spread
    const fixture = 'zonal-spread-match-label-keys';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 1, 'us-east-1b': 1, 'us-east-1c': 1 });
  });

  it('places every pod when the spread is ScheduleAnyway', async () => {
    // Prepare: one matching pod in us-east-1a, launches only in us-east-1c
    const fixture = 'zonal-spread-schedule-anyway';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1c': 5 });
    expect(plan.unschedulable).toEqual([]);
  });

  it('places every replica when the replicas run in a zone the NodePool cannot launch in', async () => {
    // Prepare: three replicas run in us-east-1a, launches only in us-east-1b, six pending
    const fixture = 'zonal-spread-schedule-anyway-replicas-elsewhere';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1b': 6 });
    expect(plan.unschedulable).toEqual([]);
  });

  it('honours a ScheduleAnyway spread whenever it can', async () => {
    // Prepare: one replica in us-east-1a on a full node, launches in three zones, five pending
    const fixture = 'zonal-spread-schedule-anyway-honoured';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 1, 'us-east-1b': 2, 'us-east-1c': 2 });
  });

  it('spreads StatefulSet pods with unbound volumes over three zones with minDomains 3', async () => {
    // Prepare: three pods with WaitForFirstConsumer claims and a zonal spread, minDomains 3
    const fixture = 'zonal-spread-with-unbound-volumes-min-domains';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 1, 'us-east-1b': 1, 'us-east-1c': 1 });
  });
});

describe.concurrent('hostname topology spread', () => {
  it('puts one pod on each node with maxSkew 1', async () => {
    // Prepare: four pods with a hostname spread (maxSkew 1)
    const fixture = 'hostname-spread-one-pod-per-node';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1, 1]);
  });

  it('packs up to maxSkew pods on one node', async () => {
    // Prepare: four pods with a hostname spread (maxSkew 4)
    const fixture = 'hostname-spread-up-to-max-skew';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toHaveLength(4);
  });

  it('balances several deployments on the fewest nodes', async () => {
    // Prepare: two deployments of two pods, each with its own hostname spread
    const fixture = 'hostname-spread-multiple-deployments';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
    for (const claim of plan.nodeClaims) {
      expect(claim.pods.map((p) => p.replace(/-\d+$/, '')).sort()).toEqual([
        'default/app1',
        'default/app2',
      ]);
    }
  });

  it('needs a node per pod when the deployments need different architectures', async () => {
    // Prepare: as above, one deployment amd64 and the other arm64
    const fixture = 'hostname-spread-multiple-deployments-mixed-arch';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(4);
    expect(podsPerLabel(plan, ARCH, 'default/app1')).toEqual({ amd64: 2 });
    expect(podsPerLabel(plan, ARCH, 'default/app2')).toEqual({ arm64: 2 });
  });
});

describe.concurrent('capacity type and architecture spread', () => {
  it('balances pods across spot and on-demand', async () => {
    // Prepare: four pods spread over karpenter.sh/capacity-type, the NodePool allows both
    const fixture = 'capacity-type-spread';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, CAPACITY_TYPE)).toEqual({ spot: 2, 'on-demand': 2 });
  });

  it('does not count nodes the pods required node affinity excludes', async () => {
    // Prepare: a matching pod runs on on-demand in us-east-1a; new pods require spot in us-east-1b
    const fixture = 'capacity-type-spread-node-affinity-constrained';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, CAPACITY_TYPE)).toEqual({ spot: 5 });
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1b': 5 });
  });

  it('counts a running on-demand pod when the NodePool launches only spot', async () => {
    // Prepare: one matching pod on on-demand, the NodePool allows spot only
    const fixture = 'capacity-type-spread-existing-on-demand-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, CAPACITY_TYPE)).toEqual({ spot: 2 });
    expect(unschedulablePods(plan)).toHaveLength(3);
  });

  it('counts a running amd64 pod when the NodePool launches only arm64', async () => {
    // Prepare: one matching pod on amd64, the NodePool allows arm64 only
    const fixture = 'arch-spread-existing-amd64-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ARCH)).toEqual({ arm64: 2 });
    expect(unschedulablePods(plan)).toHaveLength(3);
  });
});

describe.concurrent('combined topology spreads', () => {
  it('respects a zonal and a hostname spread together', async () => {
    // Prepare: ten pods, zone maxSkew 1 and hostname maxSkew 3
    const fixture = 'hostname-and-zonal-spread';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, ZONE))).toEqual([3, 3, 4]);
    for (const claim of plan.nodeClaims) expect(claim.pods.length).toBeLessThanOrEqual(3);
  });

  it('respects a capacity type and a zonal spread together', async () => {
    // Prepare: six pods, capacity type maxSkew 1 and zone maxSkew 1
    const fixture = 'zonal-and-capacity-type-spread';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, CAPACITY_TYPE))).toEqual([3, 3]);
    expect(sortedCounts(podsPerLabel(plan, ZONE))).toEqual([2, 2, 2]);
  });

  it('respects capacity type, zonal and hostname spreads together', async () => {
    // Prepare: fourteen pods, capacity type maxSkew 1, zone maxSkew 2, hostname maxSkew 3
    const fixture = 'hostname-zonal-and-capacity-type-spread';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const byCapacity = sortedCounts(podsPerLabel(plan, CAPACITY_TYPE));
    const byZone = sortedCounts(podsPerLabel(plan, ZONE));
    expect(plan.unschedulable).toEqual([]);
    expect(byCapacity).toHaveLength(2);
    expect((byCapacity.at(-1) ?? 0) - (byCapacity[0] ?? 0)).toBeLessThanOrEqual(1);
    expect(byZone).toHaveLength(3);
    expect((byZone.at(-1) ?? 0) - (byZone[0] ?? 0)).toBeLessThanOrEqual(2);
    for (const claim of plan.nodeClaims) expect(claim.pods.length).toBeLessThanOrEqual(3);
  });
});

describe.concurrent('spread over a custom label', () => {
  it('counts domains of tainted NodePools with nodeTaintsPolicy Ignore', async () => {
    // Prepare: domain "foo" from an untainted NodePool, "bar" from a tainted one the pods do not tolerate
    const fixture = 'label-spread-node-taints-policy-ignore';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, 'example.com/spread')).toEqual({ foo: 1 });
    expect(unschedulablePods(plan)).toHaveLength(1);
  });

  it('counts domains of nodes the pods cannot select with nodeAffinityPolicy Ignore', async () => {
    // Prepare: nodes carry domains "foo" and "bar" but not the pods' selector; the NodePool makes "baz"
    const fixture = 'label-spread-node-affinity-policy-ignore';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, 'example.com/spread')).toEqual({ baz: 1 });
    expect(unschedulablePods(plan)).toHaveLength(4);
  });

  it('counts only the domains of NodePools whose taints the pods tolerate (nodeTaintsPolicy Honor)', async () => {
    // Prepare: domain "bar" comes only from a NodePool whose taint the pods do not tolerate
    const fixture = 'label-spread-node-taints-policy-honor';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual([]);
    expect(podsPerLabel(plan, 'example.com/spread')).toEqual({ foo: 2 });
  });

  it("counts only the domains of nodes matching the pods' node selector (nodeAffinityPolicy Honor)", async () => {
    // Prepare: existing nodes carry "foo" and "bar" but do not match the pods' nodeSelector
    const fixture = 'label-spread-node-affinity-policy-honor';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual([]);
    expect(podsPerLabel(plan, 'example.com/spread')).toEqual({ baz: 5 });
  });
});

describe.concurrent('spread selectors', () => {
  it('packs pods whose spread has no label selector, as it selects no pods', async () => {
    // Prepare: two pods with a zonal spread without labelSelector
    const fixture = 'zonal-spread-nil-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(claimOf(plan, 'default/web-1')?.pods).toEqual(podNames('web', 2));
  });

  it('does not place a pod spread over a key no node can have', async () => {
    // Prepare: one pod spreads over the label "unknown", another has no constraints
    const fixture = 'spread-unknown-topology-key';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/spread']);
    expect(claimOf(plan, 'default/plain')?.nodePool).toBe('default');
  });
});
