/**
 * Taints and tolerations: NodePool taints on new claims, startup and PreferNoSchedule taints,
 * and taints of existing nodes (core: pkg/scheduling/taints.go, pkg/controllers/state/statenode.go
 * `Taints`; cases from provisioning/scheduling/suite_test.go, "Taints").
 */
import { describe, expect, it } from 'vitest';
import { claimOf, planOf, unschedulablePods } from './plan-cli.ts';

describe.concurrent('taints and tolerations', () => {
  it('sets the NodePool taints on the claim of a tolerating pod', async () => {
    // Prepare: a NodePool tainted nvidia.com/gpu=true:NoSchedule and a pod tolerating it
    const fixture = 'nodepool-taints-applied';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/trainer')?.taints).toEqual([
      { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
    ]);
  });

  it('does not place a pod that does not tolerate the NodePool taints', async () => {
    // Prepare: the same NodePool, one pod without tolerations and one with an Exists toleration
    const fixture = 'nodepool-taints-not-tolerated';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/web']);
    expect(plan.unschedulable[0]?.reason).toContain('nvidia.com/gpu');
    expect(claimOf(plan, 'default/trainer')?.nodePool).toBe('default');
  });

  it('places pods that do not tolerate the NodePool startup taints', async () => {
    // Prepare: a NodePool with a Cilium startup taint, a pod without tolerations
    const fixture = 'nodepool-startup-taints-do-not-block';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.taints).toEqual([]);
  });

  it('does not taint the claim of a pod tolerating everything', async () => {
    // Prepare: an untainted NodePool and a pod with toleration {operator: Exists}
    const fixture = 'exists-toleration-generates-no-taint';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/agent')?.taints).toEqual([]);
  });

  it('places a pod on a NodePool with a PreferNoSchedule taint it does not tolerate', async () => {
    // Prepare: the only NodePool has a PreferNoSchedule taint
    const fixture = 'nodepool-prefer-no-schedule-taint-relaxed';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.taints).toEqual([
      { key: 'example.com/spot-only', value: 'true', effect: 'PreferNoSchedule' },
    ]);
  });

  it('places a pod on a managed node still carrying its startup taint', async () => {
    // Prepare: a registered but not initialized node with the NodePool's startup taint
    const fixture = 'uninitialized-node-startup-taint-ignored';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/web'] },
    ]);
  });

  it('places a pod on a managed node still carrying the kubelet not-ready taints', async () => {
    // Prepare: a registered, not initialized node tainted not-ready:NoExecute and :NoSchedule
    const fixture = 'uninitialized-node-not-ready-taints-ignored';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/web'] },
    ]);
  });

  it('places a pod on a managed node still carrying a readiness.k8s.io taint', async () => {
    // Prepare: a registered, not initialized node tainted readiness.k8s.io/network-ready
    const fixture = 'uninitialized-node-readiness-taint-ignored';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/web'] },
    ]);
  });

  it('honours a not-ready taint on a managed node that is already initialized', async () => {
    // Prepare: the same node, its NodeClaim Initialized=True
    const fixture = 'initialized-node-not-ready-taint-blocks';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(plan.nodeClaims.map((c) => c.pods)).toEqual([['default/web']]);
  });

  it('passes over an existing node whose taint the pod does not tolerate', async () => {
    // Prepare: an existing node tainted example.com/maintenance=true:NoSchedule
    const fixture = 'node-taint-not-tolerated';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });

  it('passes over a cordoned node', async () => {
    // Prepare: an existing node with spec.unschedulable
    const fixture = 'cordoned-node-not-used';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });
});
