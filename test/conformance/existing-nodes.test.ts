/**
 * Existing, in-flight and deleting nodes: what room they offer, what they keep for DaemonSets
 * and host ports, and which pods they release (core: provisioning/scheduling/existingnode.go,
 * scheduler.go, pkg/scheduling/hostportusage.go, provisioning/provisioner.go; cases from
 * scheduling/suite_test.go, "In-Flight Nodes", "Existing Nodes", "Deleting Nodes").
 */
import { describe, expect, it } from 'vitest';
import { claimOf, planOf, unschedulablePods } from './plan-cli.ts';

describe.concurrent('existing nodes', () => {
  it('places a pod on an existing node with room instead of launching one', async () => {
    // Prepare: an m5.large node with nothing on it, one 500m pod
    const fixture = 'existing-node-with-room';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/web'] },
    ]);
    expect(plan.summary.pricePerHour).toBe(0);
  });

  it('keeps room on an existing node for a DaemonSet that has no pod there yet', async () => {
    // Prepare: 2000m allocatable, a 500m DaemonSet not yet running, a 1600m pod
    const fixture = 'existing-node-missing-daemonset-reserved';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });

  it('counts a running DaemonSet pod once on an existing node', async () => {
    // Prepare: 2000m allocatable, the 500m DaemonSet pod runs there, a 1400m pod
    const fixture = 'existing-node-running-daemonset-not-reserved-twice';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/web'] },
    ]);
  });

  it('does not place a pod on a node whose host port it would reuse', async () => {
    // Prepare: a pod on the node holds host port 9100, the pending pod wants it too
    const fixture = 'existing-node-host-port-conflict';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/exporter-new')?.nodePool).toBe('default');
  });

  it('does not put two pending pods with the same host port on one node', async () => {
    // Prepare: two pods each want host port 8080
    const fixture = 'host-port-conflict-between-pending-pods';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/proxy-1')?.name).not.toBe(claimOf(plan, 'default/proxy-2')?.name);
  });
});

describe.concurrent('in-flight and deleting nodes', () => {
  it('places a pod on a launched NodeClaim whose node has not joined yet', async () => {
    // Prepare: a NodeClaim with status.allocatable and no node
    const fixture = 'in-flight-node-claim-reused';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.existingNodes).toEqual([{ name: 'default-q8m4n', pods: ['default/web'] }]);
  });

  it('launches a node when the in-flight NodeClaim is too small for the pod', async () => {
    // Prepare: the in-flight claim allocates 1930m, the pod asks for 2500m
    const fixture = 'in-flight-node-claim-too-small';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/web')?.instanceType).toBe('m5.xlarge');
  });

  it('does not place a pod on an in-flight NodeClaim whose taint it does not tolerate', async () => {
    // Prepare: the in-flight claim is tainted example.com/dedicated=search:NoSchedule
    const fixture = 'in-flight-node-claim-taint-respected';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([]);
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });

  it('plans new capacity for the pods of a node being deleted', async () => {
    // Prepare: a node with a deletionTimestamp runs two ReplicaSet pods
    const fixture = 'deleting-node-pods-rescheduled';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.summary.pendingPods).toBe(2);
    expect(plan.existingNodes).toEqual([]);
    expect(plan.nodeClaims.flatMap((c) => c.pods).sort()).toEqual([
      'default/api-7d9f8-abcde',
      'default/api-7d9f8-fghij',
    ]);
  });

  it('leaves pending DaemonSet pods to their controller and says so', async () => {
    // Prepare: a pending aws-node DaemonSet pod and a pending Deployment pod
    const fixture = 'daemonset-pods-not-provisioned';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['kube-system/aws-node-x2k8d']);
    expect(plan.unschedulable[0]?.reason).toMatch(/DaemonSet/);
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });
});
