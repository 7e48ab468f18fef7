import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../../functions/domain/condition.ts';
import { Label } from '../../../../functions/domain/labels.ts';
import type { EC2NodeClass } from '../../../../functions/domain/node-class.ts';
import type { NodePool } from '../../../../functions/domain/node-pool.ts';
import { aNode, aNodePool, aPod } from '../../../support/builders.ts';
import { placementOf, planFor } from '../../../support/scheduling-builders.ts';

function ready(status: Condition['status'], reason?: string): Condition {
  return { type: 'Ready', status, ...(reason === undefined ? {} : { reason }) };
}

function withConditions(pool: NodePool, conditions: readonly Condition[]): NodePool {
  return { ...pool, status: { conditions } };
}

function aNodeClass(name: string, conditions?: readonly Condition[]): EC2NodeClass {
  return {
    metadata: { name },
    spec: {},
    ...(conditions === undefined ? {} : { status: { conditions } }),
  };
}

describe('NodePools and EC2NodeClasses that are not ready', () => {
  it.each<[string, NodePool, EC2NodeClass[], string]>([
    [
      'its NodePool reports Ready=False',
      withConditions(aNodePool(), [ready('False', 'NodeClassNotReady')]),
      [],
      'NodePool is not ready (NodeClassNotReady)',
    ],
    [
      'its EC2NodeClass is missing (NodeClassNotFound), naming the class to apply',
      withConditions(aNodePool(), [ready('False', 'NodeClassNotFound')]),
      [],
      'NodePool is not ready (NodeClassNotFound): EC2NodeClass "default" not found',
    ],
    [
      'its NodePool reports Ready=False without a reason',
      withConditions(aNodePool(), [ready('False')]),
      [],
      'NodePool is not ready',
    ],
    [
      'its EC2NodeClass reports Ready=False',
      aNodePool(),
      [aNodeClass('default', [ready('False', 'SubnetsNotFound')])],
      'EC2NodeClass "default" is not ready (SubnetsNotFound)',
    ],
  ])('launches nothing from a pool when %s, and says so', (_label, pool, nodeClasses, message) => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], nodeClasses });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/web',
        reason: `nodepool "default": ${message}`,
        reasons: [{ nodePool: 'default', code: 'NotReady', message }],
      },
    ]);
  });

  it.each<[string, NodePool, EC2NodeClass[]]>([
    ['neither reports a status', aNodePool(), [aNodeClass('default')]],
    ['no EC2NodeClass is given', aNodePool(), []],
    [
      'both report Ready=True',
      withConditions(aNodePool(), [ready('True')]),
      [aNodeClass('default', [ready('True')])],
    ],
    [
      'only another EC2NodeClass is not ready',
      aNodePool(),
      [aNodeClass('other', [ready('False')])],
    ],
    [
      'only another condition is False',
      withConditions(aNodePool(), [{ type: 'ValidationSucceeded', status: 'False' }]),
      [],
    ],
  ])('launches from a pool when %s', (_label, pool, nodeClasses) => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], nodeClasses });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', nodePool: 'default' });
    expect(plan.unschedulable).toEqual([]);
  });

  it('launches nothing while a pool reports its readiness as Unknown, as Karpenter waits for Ready=True', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });
    const pool = withConditions(aNodePool(), [ready('Unknown')]);

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], nodeClasses: [aNodeClass('default')] });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reasons[0]?.code).toBe('NotReady');
  });

  it('uses the next ready pool, even a lighter one', () => {
    // Prepare
    const pools = [
      withConditions(aNodePool({ name: 'broken', weight: 100 }), [ready('False', 'Drifted')]),
      aNodePool({ name: 'fallback' }),
    ];
    const pods = [aPod({ name: 'a', cpu: '1' }), aPod({ name: 'b', cpu: '1' })];

    // Act
    const plan = planFor({ pods, nodePools: pools });

    // Assess
    expect(plan.nodeClaims.map((c) => [c.nodePool, c.pods])).toEqual([
      ['fallback', ['default/a', 'default/b']],
    ]);
    expect(plan.unschedulable).toEqual([]);
  });

  it('names the pool that is not ready next to the reasons of the ready ones', () => {
    // Prepare
    const pools = [
      withConditions(aNodePool({ name: 'broken', weight: 100 }), [ready('False', 'Drifted')]),
      aNodePool({
        name: 'arm',
        requirements: [{ key: Label.arch, operator: 'In', values: ['arm64'] }],
      }),
    ];
    const pod = aPod({ name: 'web', cpu: '1', nodeSelector: { [Label.arch]: 'amd64' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(plan.unschedulable[0]?.reasons.map((r) => [r.nodePool, r.code])).toEqual([
      ['broken', 'NotReady'],
      ['arm', 'Requirements'],
    ]);
  });

  it('still places pods on existing nodes when no pool is ready', () => {
    // Prepare
    const pool = withConditions(aNodePool(), [ready('False')]);
    const pods = [aPod({ name: 'fits', cpu: '3' }), aPod({ name: 'spills', cpu: '3' })];

    // Act
    const plan = planFor({ pods, nodePools: [pool], nodes: [aNode({ name: 'node-a', cpu: '4' })] });

    // Assess
    expect(plan.existingNodes).toEqual([{ name: 'node-a', pods: ['default/fits'] }]);
    expect(plan.unschedulable.map((u) => [u.pod, u.reasons[0]?.code])).toEqual([
      ['default/spills', 'NotReady'],
    ]);
  });
});
