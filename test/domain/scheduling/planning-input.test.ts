import { describe, expect, it } from 'vitest';
import type { ClusterSnapshot } from '../../../functions/domain/cluster-snapshot.ts';
import { planProvisioning } from '../../../functions/domain/scheduling/plan-provisioning.ts';
import { planningInput } from '../../../functions/domain/scheduling/planning-input.ts';
import { aNode, aNodePool, aPod } from '../../support/builders.ts';
import { aContainer, aPodWithContainers } from '../../support/scheduling-builders.ts';

/** A snapshot with nothing in it but what the test gives. */
function aSnapshot(objects: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  return {
    nodes: [],
    pods: [],
    daemonSets: [],
    podDisruptionBudgets: [],
    persistentVolumes: [],
    persistentVolumeClaims: [],
    storageClasses: [],
    runtimeClasses: [],
    namespaces: [],
    nodeClaims: [],
    nodePools: [],
    nodeClasses: [],
    nodeOverlays: [],
    ...objects,
  };
}

describe('planningInput', () => {
  it('hands the planner every object of the snapshot, and the namespaces as labels by name', () => {
    // Prepare
    const snapshot = aSnapshot({
      pods: [aPod({ name: 'web' })],
      nodes: [aNode({ name: 'node-a' })],
      nodePools: [aNodePool()],
      runtimeClasses: [{ name: 'kata', overhead: { podFixed: { cpu: '250m' } } }],
      storageClasses: [{ name: 'gp3', provisioner: 'ebs.csi.aws.com' }],
      podDisruptionBudgets: [
        {
          namespace: 'shop',
          name: 'web',
          selector: { matchLabels: { app: 'web' } },
          disruptionsAllowed: 1,
          currentHealthy: 2,
          desiredHealthy: 1,
          expectedPods: 2,
        },
      ],
      namespaces: [
        { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } },
        { name: 'shop', labels: { team: 'checkout' } },
      ],
    });
    // Act
    const input = planningInput(snapshot, { instanceTypes: new Map(), region: 'us-east-1' });
    // Assess
    const { namespaces: _listed, ...objects } = snapshot;
    expect(input).toMatchObject(objects);
    expect(input.namespaces).toEqual(
      new Map([
        ['default', { 'kubernetes.io/metadata.name': 'default' }],
        ['shop', { team: 'checkout' }],
      ]),
    );
    expect(input.region).toBe('us-east-1');
    expect(input).not.toHaveProperty('clusterLimits');
  });

  it('gives a namespace listed twice the labels of the later listing (files after the cluster)', () => {
    // Prepare
    const snapshot = aSnapshot({
      namespaces: [
        { name: 'shop', labels: { team: 'live' } },
        { name: 'shop', labels: { team: 'files' } },
      ],
    });
    // Act
    const input = planningInput(snapshot, { instanceTypes: new Map() });
    // Assess
    expect(input.namespaces).toEqual(new Map([['shop', { team: 'files' }]]));
  });

  it("lets the caller's settings and objects stand for the snapshot's", () => {
    // Prepare
    const snapshot = aSnapshot({ pods: [aPod({ name: 'web' })] });
    const outOfTime = () => false;
    // Act
    const input = planningInput(
      { ...snapshot, pods: [] },
      { instanceTypes: new Map(), requireUnschedulableMark: true, outOfTime },
    );
    // Assess
    expect(input.pods).toEqual([]);
    expect(input.requireUnschedulableMark).toBe(true);
    expect(input.outOfTime).toBe(outOfTime);
  });

  it('makes the plan count the overhead of the RuntimeClass a pod names', () => {
    // Prepare
    const plain = aPodWithContainers({
      name: 'plain',
      containers: [aContainer('app', { cpu: '1' })],
    });
    const sandboxed = aPodWithContainers({
      name: 'sandboxed',
      containers: [aContainer('app', { cpu: '1' })],
      runtimeClassName: 'kata',
    });
    const snapshot = aSnapshot({
      pods: [sandboxed, plain],
      nodes: [aNode({ name: 'node-a', cpu: '2' })],
      runtimeClasses: [{ name: 'kata', overhead: { podFixed: { cpu: '1500m' } } }],
    });
    // Act
    const plan = planProvisioning(planningInput(snapshot, { instanceTypes: new Map() }));
    // Assess
    expect(plan.existingNodes).toEqual([{ name: 'node-a', pods: ['default/plain'] }]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/sandboxed']);
  });
});
