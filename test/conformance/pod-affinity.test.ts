/**
 * Pod affinity and anti-affinity as Karpenter's provisioner simulates them, including the inverse
 * anti-affinity of running pods and the late commitment of zones (core: provisioning/scheduling/
 * topology.go `updateInverseAffinities`; cases from scheduling/topology_test.go).
 */
import { describe, expect, it } from 'vitest';
import {
  ARCH,
  claimOf,
  planOf,
  podNames,
  podsPerLabel,
  scheduledPods,
  unschedulablePods,
  ZONE,
} from './plan-cli.ts';

describe.concurrent('pod affinity', () => {
  it('places a pod on the node of the pod it has hostname affinity to', async () => {
    // Prepare: a follower with required hostname affinity to a pending target, beside ten spread pods
    const fixture = 'pod-affinity-hostname';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/follower')?.name).toBe(claimOf(plan, 'default/target')?.name);
    expect(plan.nodeClaims).toHaveLength(10);
  });

  it('places a pod on the architecture of the pod it has arch affinity to', async () => {
    // Prepare: an arm64 target and a follower with affinity on kubernetes.io/arch, hostname-spread apart
    const fixture = 'pod-affinity-arch';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const target = claimOf(plan, 'default/target');
    const follower = claimOf(plan, 'default/follower');
    expect(follower?.labels[ARCH]).toBe('arm64');
    expect(target?.labels[ARCH]).toBe('arm64');
    expect(follower?.name).not.toBe(target?.name);
  });

  it('launches in the zone of a running pod the pods have zonal affinity to', async () => {
    // Prepare: the target runs in us-east-1b; three pods need its zone
    const fixture = 'pod-affinity-zone-existing-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1b': 3 });
  });

  it('follows a pending target whose zone is fixed by its own node affinity', async () => {
    // Prepare: ten pods with zonal affinity to a pending pod that requires us-east-1a
    const fixture = 'pod-affinity-zone-constrained-target';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 11 });
  });

  it('waits for a later pass when the target pod zone is not decided yet', async () => {
    // Prepare: three pods with zonal affinity to a pending pod without zone constraints
    const fixture = 'pod-affinity-zone-unconstrained-target';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(scheduledPods(plan)).toEqual(['default/target']);
    expect(unschedulablePods(plan)).toEqual(podNames('web', 3));
  });

  it('puts pods with hostname self-affinity on one node', async () => {
    // Prepare: three pods with required hostname affinity to each other
    const fixture = 'pod-self-affinity-hostname';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toHaveLength(3);
  });

  it('fills only the first node with self-affine pods', async () => {
    // Prepare: ten self-affine pods (hostname), five fit a node
    const fixture = 'pod-self-affinity-first-empty-domain-only';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toHaveLength(5);
    expect(plan.unschedulable).toHaveLength(5);
  });

  it('puts pods with zonal self-affinity in one zone', async () => {
    // Prepare: three pods with required zonal affinity to each other, one per node
    const fixture = 'pod-self-affinity-zone';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(Object.values(podsPerLabel(plan, ZONE))).toEqual([3]);
  });

  it('puts pods with zonal self-affinity in the zone they also require', async () => {
    // Prepare: as above, the pods also require us-east-1c
    const fixture = 'pod-self-affinity-zone-constrained';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1c': 3 });
  });

  it('does not place pods with affinity to pods that do not exist', async () => {
    // Prepare: three pods with required zonal affinity to security=s2, which no pod has
    const fixture = 'pod-affinity-to-missing-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(unschedulablePods(plan)).toEqual(podNames('web', 3));
  });

  it('places a chain of dependent affinities on one node', async () => {
    // Prepare: ui -> cache -> web -> db, each with hostname affinity to the next
    const fixture = 'pod-affinity-dependency-chain';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect([...(plan.nodeClaims[0]?.pods ?? [])].sort()).toEqual([
      'default/cache',
      'default/db',
      'default/ui',
      'default/web',
    ]);
  });

  it('looks for affinity targets only in the pod namespace by default', async () => {
    // Prepare: the only target runs in namespace payments, the term names no namespaces
    const fixture = 'pod-affinity-other-namespace-not-matched';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'payments/target')?.nodePool).toBe('default');
    expect(unschedulablePods(plan)).toEqual(['default/follower']);
  });

  it('looks for affinity targets in the namespaces the term lists', async () => {
    // Prepare: the term lists namespace payments
    const fixture = 'pod-affinity-namespace-list';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/follower')?.name).toBe(claimOf(plan, 'payments/target')?.name);
  });

  it('looks for affinity targets in every namespace with an empty namespaceSelector', async () => {
    // Prepare: the term has namespaceSelector {}
    const fixture = 'pod-affinity-empty-namespace-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/follower')?.name).toBe(claimOf(plan, 'payments/target')?.name);
  });

  it('looks for affinity targets in the namespaces a namespaceSelector matches', async () => {
    // Prepare: the selector matches namespace payments (team=payments), not search
    const fixture = 'pod-affinity-namespace-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const follower = claimOf(plan, 'default/follower');
    expect(follower?.name).toBe(claimOf(plan, 'payments/target')?.name);
    expect(follower?.pods).not.toContain('search/decoy');
  });

  it('drops a preferred pod affinity that cannot be met', async () => {
    // Prepare: a pod prefers the node of a pod that does not exist
    const fixture = 'pod-affinity-preferred-may-be-violated';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/follower')?.nodePool).toBe('default');
    expect(plan.unschedulable).toEqual([]);
  });

  it('drops a preferred pod affinity that conflicts with a required spread', async () => {
    // Prepare: three pods prefer the target's node but may only be one per node
    const fixture = 'pod-affinity-preference-conflicting-with-spread';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.unschedulable).toEqual([]);
    expect(new Set(podNames('web', 3).map((p) => claimOf(plan, p)?.name)).size).toBe(3);
  });
});

describe.concurrent('pod anti-affinity', () => {
  it('keeps a pod off the node of the pod it repels on hostname', async () => {
    // Prepare: an avoider with required hostname anti-affinity to a pending target
    const fixture = 'pod-anti-affinity-hostname';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/avoider')?.name).not.toBe(claimOf(plan, 'default/target')?.name);
    expect(plan.nodeClaims).toHaveLength(2);
  });

  it('gives each pod of a hostname self-anti-affine deployment its own node', async () => {
    // Prepare: four checkout pods repel each other on hostname
    const fixture = 'pod-self-anti-affinity-hostname';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1, 1]);
  });

  it('does not place a pod whose zonal anti-affinity leaves no zone', async () => {
    // Prepare: security=s2 pods pinned one per zone, an avoider with zonal anti-affinity to them
    const fixture = 'pod-anti-affinity-zone';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1a': 1, 'us-east-1b': 1, 'us-east-1c': 1 });
    expect(unschedulablePods(plan)).toEqual(['default/avoider']);
  });

  it('does not place a pod repelling a pod whose zone is not decided yet', async () => {
    // Prepare: the target is placed first, without a zone constraint
    const fixture = 'pod-anti-affinity-zone-undecided-domain';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(scheduledPods(plan)).toEqual(['default/target']);
    expect(unschedulablePods(plan)).toEqual(['default/avoider']);
  });

  it('does not place a pod repelled by a pod whose zone is not decided yet', async () => {
    // Prepare: the pod with zonal anti-affinity is placed first, without a zone constraint
    const fixture = 'pod-anti-affinity-zone-schrodinger';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(scheduledPods(plan)).toEqual(['default/anywhere']);
    expect(unschedulablePods(plan)).toEqual(['default/target']);
  });

  it('places one of several zonal self-anti-affine pods per pass', async () => {
    // Prepare: five pods repel each other on the zone
    const fixture = 'pod-self-anti-affinity-zone';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(scheduledPods(plan)).toHaveLength(1);
    expect(plan.unschedulable).toHaveLength(4);
  });

  it('keeps a pod off the architecture of the pod it repels on arch', async () => {
    // Prepare: an arm64 target and an avoider with anti-affinity on kubernetes.io/arch
    const fixture = 'pod-anti-affinity-arch';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/target')?.labels[ARCH]).toBe('arm64');
    expect(claimOf(plan, 'default/avoider')?.labels[ARCH]).toBe('amd64');
  });

  it('keeps a pod out of zones where pending pods repel it', async () => {
    // Prepare: pods pinned one per zone repel security=s2; a pending s2 pod
    const fixture = 'pod-inverse-anti-affinity';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/target']);
  });

  it('keeps a pod out of zones where running pods repel it', async () => {
    // Prepare: running pods in all three zones repel security=s2
    const fixture = 'pod-inverse-anti-affinity-existing-nodes';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(unschedulablePods(plan)).toEqual(['default/target']);
  });

  it('launches outside the zone where a running pod repels the pod', async () => {
    // Prepare: a running pod in us-east-1a repels security=s2
    const fixture = 'pod-inverse-anti-affinity-one-zone';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/target');
    expect(claim?.nodePool).toBe('default');
    expect(claim?.zone).not.toBe('us-east-1a');
    expect(claim?.labels[ZONE]).not.toBe('us-east-1a');
  });

  it('drops a preferred pod anti-affinity that cannot be met', async () => {
    // Prepare: ten pods prefer to avoid zones with app=web pods, which are in every zone
    const fixture = 'pod-anti-affinity-preferred-may-be-violated';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.unschedulable).toEqual([]);
    expect(scheduledPods(plan)).toHaveLength(13);
  });

  it('ignores the preferred anti-affinity of running pods towards the pod', async () => {
    // Prepare: running pods in all three zones only prefer to keep security=s2 away
    const fixture = 'pod-inverse-preferred-anti-affinity-ignored';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/target')?.nodePool).toBe('default');
  });
});
