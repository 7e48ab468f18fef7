/**
 * Bin-packing: pods per node, largest first, pod and DaemonSet overhead, the pods resource,
 * NodePool limits and minValues (core: pkg/apis/v1/nodepool.go, provisioning/scheduling/
 * scheduler.go and nodeclaim.go; aws: pkg/providers/instancetype/types.go for pods and
 * allocatable; cases from scheduling/suite_test.go, "Binpacking").
 */
import { describe, expect, it } from 'vitest';
import { claimOf, planOf, podNames, unschedulablePods } from './plan-cli.ts';

describe.concurrent('bin-packing', () => {
  it('packs several pods onto one node', async () => {
    // Prepare: three 500m pods, m5.large allocates 1930m
    const fixture = 'binpack-pods-onto-one-node';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toEqual(podNames('web', 3));
  });

  it('places the largest pods first', async () => {
    // Prepare: one 1500m pod and four 400m pods on m5.large
    const fixture = 'binpack-largest-first';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
    expect(claimOf(plan, 'default/large')?.pods).toHaveLength(2);
  });

  it('does not place a pod larger than every allowed instance type', async () => {
    // Prepare: an 8 vCPU pod, the NodePool allows m5.large and m5.xlarge
    const fixture = 'binpack-pod-larger-than-any-type';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/huge']);
    expect(plan.unschedulable[0]?.reason).toMatch(/cpu/);
    expect(claimOf(plan, 'default/web')?.instanceType).toBe('m5.large');
  });

  it('opens a second node when the first reaches its pod limit', async () => {
    // Prepare: thirty 10m pods, m5.large takes 29 pods
    const fixture = 'binpack-pods-resource';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length).sort((a, b) => a - b)).toEqual([1, 29]);
  });

  it('sizes a pod by its largest init container when that exceeds its containers', async () => {
    // Prepare: two pods, 100m containers and a 1200m init container each
    const fixture = 'binpack-init-containers';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
  });

  it('adds the RuntimeClass overhead to each pod', async () => {
    // Prepare: two 800m pods with a RuntimeClass adding 500m each
    const fixture = 'binpack-runtime-class-overhead';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
  });

  it('keeps adding pods to one claim while an efficient instance type can hold them', async () => {
    // Prepare: ten 500m / 1Gi pods and every c/m/r type of generation > 5
    const fixture = 'binpack-pods-onto-one-node-many-instance-types';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toHaveLength(10);
  });
});

describe.concurrent('DaemonSet overhead on new nodes', () => {
  it('reserves room for DaemonSets that will run on the node', async () => {
    // Prepare: a 1 vCPU DaemonSet and two 800m pods; m5.large or m5.xlarge
    const fixture = 'daemonset-overhead-sizes-node';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.instanceTypeOptions).toEqual(['m5.xlarge']);
  });

  it('ignores DaemonSets whose node selector the NodePool cannot match', async () => {
    // Prepare: the DaemonSet selects arm64, the NodePool offers amd64 types
    const fixture = 'daemonset-overhead-not-matching-pool';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.instanceType).toBe('m5.large');
  });

  it('ignores DaemonSets that do not tolerate the NodePool taints', async () => {
    // Prepare: the NodePool is tainted, the DaemonSet has no tolerations
    const fixture = 'daemonset-overhead-not-tolerating-pool-taint';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.instanceType).toBe('m5.large');
  });
});

describe.concurrent('NodePool limits and minValues', () => {
  it('launches no more than the NodePool cpu limit allows', async () => {
    // Prepare: cpu limit 2, two pods that each need an m5.large (2 vCPU)
    const fixture = 'nodepool-cpu-limit';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(unschedulablePods(plan)).toHaveLength(1);
    expect(plan.unschedulable[0]?.reason).toMatch(/limit/);
  });

  it('launches nodes until the NodePool cpu limit is used up', async () => {
    // Prepare: cpu limit 8, three pods that each need an m5.large (2 vCPU)
    const fixture = 'nodepool-cpu-limit-allows-several-nodes';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(3);
    expect(plan.unschedulable).toEqual([]);
  });

  it('counts the capacity of the NodePool existing nodes against its limit', async () => {
    // Prepare: cpu limit 4, one node of the pool with 2 vCPU, two pods that each need an m5.large
    const fixture = 'nodepool-cpu-limit-with-existing-node';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(unschedulablePods(plan)).toHaveLength(1);
    expect(plan.unschedulable[0]?.reason).toMatch(/limit/);
  });

  it('falls back to the next NodePool when the preferred one is at its limit', async () => {
    // Prepare: the heavier NodePool has cpu limit 0
    const fixture = 'nodepool-limit-falls-back-to-next-pool';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('fallback');
  });

  it('does not place a pod when the NodePool minValues cannot be met', async () => {
    // Prepare: minValues 3 on instance-family, two families allowed
    const fixture = 'nodepool-min-values-unmet';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/web']);
    expect(plan.unschedulable[0]?.reason).toMatch(/minValues/);
  });

  it('keeps instance types of as many families as minValues asks', async () => {
    // Prepare: minValues 2 on instance-family, m5 and c5 allowed
    const fixture = 'nodepool-min-values-met';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const families = new Set(
      claimOf(plan, 'default/web')?.instanceTypeOptions.map((t) => t.split('.')[0]),
    );
    expect([...families].sort()).toEqual(['c5', 'm5']);
  });
});
