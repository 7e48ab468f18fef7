/**
 * Node auto repair, ported from core: pkg/controllers/node/health/suite_test.go, with the AWS
 * provider's policies (aws: pkg/cloudprovider/cloudprovider.go `RepairPolicies`) in place of the
 * fake provider's `BadNode`.
 */
import { describe, expect, it } from 'vitest';
import {
  AWS_REPAIR_POLICIES,
  unhealthyCondition,
} from '../../../functions/domain/disruption/repair-policies.ts';
import type { NodeCondition } from '../../../functions/domain/node.ts';
import { aPod } from '../../support/builders.ts';
import {
  aBudget,
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
  NOW_MS,
} from '../../support/disruption-builders.ts';

/** A condition that changed `minutes` before NOW. */
function condition(type: string, status: string, minutes: number): NodeCondition {
  return { type, status, lastTransitionTime: new Date(NOW_MS - minutes * 60_000).toISOString() };
}

/** A node of pool `default` with these conditions. */
function nodeWith(name: string, ...conditions: NodeCondition[]) {
  return aPoolNode({ name, conditions });
}

describe('repair', () => {
  it.each(
    AWS_REPAIR_POLICIES.map((p) => ({
      type: p.conditionType,
      status: p.conditionStatus,
      minutes: p.tolerationMs / 60_000,
    })),
  )(
    'replaces a node whose $type has been $status past $minutes minutes, and not before',
    ({ type, status, minutes }) => {
      // Prepare: one node of five, so the pool stays under its unhealthy threshold
      const healthy = ['b', 'c', 'd', 'e'].map((name) => nodeWith(name));
      const past = nodeWith('past', condition(type, status, minutes + 1));
      const within = nodeWith('within', condition(type, status, minutes - 1));

      // Act
      const plan = disruptionFor({ nodes: [past, ...healthy] });
      const early = disruptionFor({ nodes: [within, ...healthy] });

      // Assess
      expect(early.decisions.map((d) => d.method)).not.toContain('repair');
      expect(plan.decisions.filter((d) => d.method === 'repair')).toEqual([
        expect.objectContaining({
          reason: 'Unhealthy',
          nodes: ['past'],
          replacements: [],
          savingsPerHour: 0,
          budgets: [],
          message: `unhealthy: node condition ${type} has been ${status} for ${minutes + 1}m, past the ${minutes}m it is tolerated; replaced without draining`,
        }),
      ]);
    },
  );

  it.each([
    { name: 'a condition no policy names', unhealthy: condition('FakeHealthyNode', 'False', 60) },
    {
      name: 'a named condition in another status',
      unhealthy: condition('KernelReady', 'True', 60),
    },
    { name: 'Ready True', unhealthy: condition('Ready', 'True', 60) },
    { name: 'a toleration not reached yet', unhealthy: condition('Ready', 'False', 20) },
  ])('leaves a node alone for $name', ({ unhealthy }) => {
    // Prepare
    const node = nodeWith('a', unhealthy);

    // Act
    const plan = disruptionFor({ nodes: [node] });

    // Assess
    expect(plan.decisions.map((d) => d.method)).not.toContain('repair');
  });

  it('counts from the condition whose toleration ends first', () => {
    // Prepare: both changed 12 minutes ago; AcceleratedHardwareReady is tolerated 10, Ready 30
    const node = nodeWith(
      'gpu',
      condition('Ready', 'False', 12),
      condition('AcceleratedHardwareReady', 'False', 12),
    );

    // Act
    const plan = disruptionFor({ nodes: [node] });

    // Assess
    expect(plan.decisions[0]?.message).toMatch(
      /^unhealthy: node condition AcceleratedHardwareReady/,
    );
  });

  it('finds the first toleration to end, and when', () => {
    // Prepare: core "should return the requeue interval for the condition closest to its terminationDuration"
    const { node } = nodeWith(
      'a',
      condition('Ready', 'False', 5),
      condition('AcceleratedHardwareReady', 'False', 7),
    );

    // Act
    const first = unhealthyCondition(node);

    // Assess: AcceleratedHardwareReady ends 3 minutes from now, Ready 25
    expect(first?.condition.type).toBe('AcceleratedHardwareReady');
    expect(first?.repairAtMs).toBe(NOW_MS + 3 * 60_000);
  });

  it('never repairs on a condition with no lastTransitionTime, though it counts as unhealthy', () => {
    // Prepare: a hand-written node, beside one unhealthy for an hour
    const undated = nodeWith('undated', { type: 'Ready', status: 'Unknown' });
    const dated = nodeWith('dated', condition('Ready', 'Unknown', 60));
    const healthy = ['c', 'd', 'e'].map((name) => nodeWith(name));

    // Consolidation off, so that no empty node goes another way.
    const nodePools = [
      aDisruptionPool({ consolidateAfter: 'Never', budgets: [{ nodes: '100%' }] }),
    ];

    // Act
    const plan = disruptionFor({ nodes: [undated, dated, ...healthy], nodePools });

    // Assess: 2 of 5 unhealthy, 1 allowed
    expect(fates(plan)).toMatchObject({ dated: 'stay:RepairBlocked' });
    expect(fates(plan).undated).not.toBe('repair');
  });

  it('never repairs a lone node whose condition has no lastTransitionTime', () => {
    // Prepare
    const undated = nodeWith('undated', { type: 'Ready', status: 'Unknown' });
    const healthy = ['b', 'c', 'd', 'e'].map((name) => nodeWith(name));

    // Act
    const plan = disruptionFor({ nodes: [undated, ...healthy] });

    // Assess
    expect(plan.decisions.map((d) => d.method)).not.toContain('repair');
  });
});

describe('repair is forceful', () => {
  const unhealthy = condition('Ready', 'False', 60);

  it.each([
    {
      name: 'a budget of zero nodes',
      pool: aDisruptionPool({ budgets: [{ nodes: '0' }] }),
      node: aPoolNode({ name: 'a', conditions: [unhealthy] }),
      blocked: false,
    },
    {
      name: 'karpenter.sh/do-not-disrupt on the node',
      pool: aDisruptionPool({ budgets: [{ nodes: '100%' }] }),
      node: aPoolNode({
        name: 'a',
        conditions: [unhealthy],
        annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
      }),
      blocked: false,
    },
    {
      name: 'a PodDisruptionBudget allowing nothing',
      pool: aDisruptionPool({ budgets: [{ nodes: '100%' }] }),
      node: aPoolNode({ name: 'a', conditions: [unhealthy] }),
      blocked: true,
    },
    {
      name: 'a node never initialized',
      pool: aDisruptionPool({ budgets: [{ nodes: '100%' }] }),
      node: aPoolNode({ name: 'a', conditions: [unhealthy], initialized: false }),
      blocked: false,
    },
  ])('ignores $name', ({ pool, node, blocked }) => {
    // Prepare
    const pod = aPod({ nodeName: 'a', labels: { app: 'web' } });
    const budget = aBudget({ name: 'web', matchLabels: { app: 'web' }, disruptionsAllowed: 0 });

    // Act
    const plan = disruptionFor({
      nodes: [node],
      nodePools: [pool],
      pods: [pod],
      podDisruptionBudgets: blocked ? [budget] : [],
    });

    // Assess
    expect(fates(plan)).toEqual({ a: 'repair' });
  });

  it('leaves a node already being deleted to its termination', () => {
    // Prepare
    const node = aPoolNode({ name: 'a', conditions: [unhealthy], deleting: true });

    // Act
    const plan = disruptionFor({ nodes: [node] });

    // Assess
    expect(fates(plan)).toEqual({ a: 'stay:Deleting' });
  });
});

describe('the unhealthy threshold of 20 % of a NodePool', () => {
  const unhealthy = condition('Ready', 'False', 60);
  // Consolidation off, so that no empty node goes another way.
  const pool = (name = 'default') =>
    aDisruptionPool({ consolidateAfter: 'Never', budgets: [{ nodes: '100%' }] }, { name });

  it('blocks repair while more than 20 % of the pool’s nodes are unhealthy', () => {
    // Prepare: 3 of 10 unhealthy, 2 allowed
    const nodes = Array.from({ length: 10 }, (_, i) =>
      aPoolNode({ name: `n${i}`, conditions: i < 3 ? [unhealthy] : [] }),
    );

    // Act
    const plan = disruptionFor({ nodes, nodePools: [pool()] });

    // Assess
    expect(plan.decisions.map((d) => d.method)).not.toContain('repair');
    expect(plan.staying.filter((s) => s.code === 'RepairBlocked')).toEqual(
      ['n0', 'n1', 'n2'].map((node) => ({
        node,
        code: 'RepairBlocked',
        reason:
          "more than 20% nodes are unhealthy in the nodepool: 3 of NodePool default's 10 nodes are, 2 may be",
      })),
    );
  });

  it('counts unhealthy nodes within their toleration too, and rounds up for small pools', () => {
    // Prepare: 1 of 3 unhealthy is 33 %, but 20 % of 3 rounds up to 1
    const small = [
      aPoolNode({ name: 'sick', conditions: [unhealthy] }),
      aPoolNode({ name: 'b' }),
      aPoolNode({ name: 'c' }),
    ];
    // 2 of 3 unhealthy, one of them only just
    const worse = [
      aPoolNode({ name: 'sick', conditions: [unhealthy] }),
      aPoolNode({ name: 'b', conditions: [condition('Ready', 'False', 1)] }),
      aPoolNode({ name: 'c' }),
    ];

    // Act
    const repaired = disruptionFor({ nodes: small, nodePools: [pool()] });
    const blocked = disruptionFor({ nodes: worse, nodePools: [pool()] });

    // Assess
    expect(fates(repaired).sick).toBe('repair');
    expect(fates(blocked).sick).toBe('stay:RepairBlocked');
  });

  it('judges each pool by its own nodes', () => {
    // Prepare: pool a has 2 of 2 unhealthy; pool b 1 of 5
    const pools = ['a', 'b'].map(pool);
    const nodes = [
      aPoolNode({ name: 'a1', nodePool: 'a', conditions: [unhealthy] }),
      aPoolNode({ name: 'a2', nodePool: 'a', conditions: [unhealthy] }),
      aPoolNode({ name: 'b1', nodePool: 'b', conditions: [unhealthy] }),
      ...[2, 3, 4, 5].map((i) => aPoolNode({ name: `b${i}`, nodePool: 'b' })),
    ];

    // Act
    const plan = disruptionFor({ nodes, nodePools: pools });

    // Assess
    expect(fates(plan)).toMatchObject({
      a1: 'stay:RepairBlocked',
      a2: 'stay:RepairBlocked',
      b1: 'repair',
    });
  });
});
