import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { aNode, aPod } from '../../../support/builders.ts';
import { placements, planFor } from '../../../support/scheduling-builders.ts';

describe('which pods a plan considers', () => {
  it('reports DaemonSet and mirror pods as ignored, with the reason', () => {
    // Prepare
    const pods = [
      aPod({ name: 'daemon', ownerKind: 'DaemonSet' }),
      aPod({ name: 'mirror', ownerKind: 'Node' }),
      aPod({ name: 'web', cpu: '1', ownerKind: 'ReplicaSet' }),
    ];

    // Act
    const plan = planFor({ pods });

    // Assess
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/daemon',
        reason: 'DaemonSet pods are placed by their controller as nodes join',
        reasons: [
          {
            code: 'Ignored',
            message: 'DaemonSet pods are placed by their controller as nodes join',
          },
        ],
      },
      {
        pod: 'default/mirror',
        reason: 'mirror pods are managed by the kubelet',
        reasons: [{ code: 'Ignored', message: 'mirror pods are managed by the kubelet' }],
      },
    ]);
    expect(plan.nodeClaims.flatMap((c) => c.pods)).toEqual(['default/web']);
    expect(plan.pendingPods).toBe(3);
  });

  it('leaves preempting pods and pods with resource claims to others', () => {
    // Prepare
    const pods = [
      { ...aPod({ name: 'preempting' }), nominatedNodeName: 'node-x' },
      (() => {
        const pod = aPod({ name: 'dra' });
        return { ...pod, spec: { ...pod.spec, resourceClaimCount: 1 } };
      })(),
    ];

    // Act
    const plan = planFor({ pods });

    // Assess
    expect(plan.unschedulable.map((u) => [u.pod, u.reasons[0]?.code, u.reason])).toEqual([
      ['default/dra', 'Ignored', 'pods with dynamic resource claims are not provisioned for'],
      ['default/preempting', 'Ignored', 'preempting: nominated to node node-x'],
    ]);
  });

  it('acts only on pods kube-scheduler gave up on when asked to', () => {
    // Prepare
    const fresh = aPod({ name: 'fresh', cpu: '1' });
    const given = { ...aPod({ name: 'given-up', cpu: '1' }), markedUnschedulable: true };

    // Act
    const plan = planFor({ pods: [fresh, given], requireUnschedulableMark: true });

    // Assess
    expect(plan.nodeClaims.flatMap((c) => c.pods)).toEqual(['default/given-up']);
    expect(plan.unschedulable.map((u) => [u.pod, u.reason])).toEqual([
      ['default/fresh', 'not yet marked Unschedulable by kube-scheduler'],
    ]);
  });

  it('leaves bound, deleting and finished pods out', () => {
    // Prepare
    const node = aNode({ name: 'node-a' });
    const pods = [
      aPod({ name: 'bound', cpu: '1', nodeName: 'node-a' }),
      { ...aPod({ name: 'deleting', cpu: '1' }), deleting: true },
      { ...aPod({ name: 'done', cpu: '1' }), phase: 'Succeeded' },
      { ...aPod({ name: 'failed', cpu: '1' }), phase: 'Failed' },
    ];

    // Act
    const plan = planFor({ pods, nodes: [node] });

    // Assess
    expect(plan.pendingPods).toBe(0);
    expect(placements(plan).size).toBe(0);
  });

  it('reschedules the running pods of a node being deleted, but not its daemons', () => {
    // Prepare
    const leaving = { ...aNode({ name: 'leaving' }), deleting: true };
    const pods = [
      aPod({ name: 'web', cpu: '1', nodeName: 'leaving' }),
      aPod({ name: 'daemon', cpu: '100m', nodeName: 'leaving', ownerKind: 'DaemonSet' }),
      { ...aPod({ name: 'stopping', cpu: '1', nodeName: 'leaving' }), deleting: true },
    ];

    // Act
    const plan = planFor({ pods, nodes: [leaving] });

    // Assess
    expect([...placements(plan).keys()]).toEqual(['default/web']);
    expect(plan.pendingPods).toBe(1);
  });

  it('lists every pending pod exactly once', () => {
    // Prepare
    const node = aNode({ name: 'node-a', cpu: '2' });
    const pods = [
      aPod({ name: 'fits-node', cpu: '1' }),
      aPod({ name: 'needs-claim', cpu: '3' }),
      aPod({ name: 'too-big', cpu: '64' }),
      aPod({ name: 'ignored', ownerKind: 'DaemonSet' }),
      aPod({ name: 'arm', cpu: '1', nodeSelector: { [Label.arch]: 'arm64' } }),
    ];

    // Act
    const plan = planFor({ pods, nodes: [node] });

    // Assess
    const listed = [
      ...plan.nodeClaims.flatMap((c) => c.pods),
      ...plan.existingNodes.flatMap((n) => n.pods),
      ...plan.unschedulable.map((u) => u.pod),
    ];
    expect(listed.sort()).toEqual([
      'default/arm',
      'default/fits-node',
      'default/ignored',
      'default/needs-claim',
      'default/too-big',
    ]);
    expect(plan.pendingPods).toBe(5);
  });

  it('names pods by namespace and name', () => {
    // Prepare
    const pod = aPod({ name: 'web', namespace: 'shop', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(plan.nodeClaims[0]?.pods).toEqual(['shop/web']);
  });
});
