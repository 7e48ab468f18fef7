/** Ported from core: pkg/controllers/disruption/emptiness_test.go and the budget cases of consolidation_test.go. */
import { describe, expect, it } from 'vitest';
import { aPod } from '../../support/builders.ts';
import {
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
} from '../../support/disruption-builders.ts';

const tenEmpty = () => Array.from({ length: 10 }, (_, i) => aPoolNode({ name: `n${i}` }));

describe('emptiness', () => {
  it('removes every empty node in one decision when the budget allows', () => {
    const plan = disruptionFor({ nodes: tenEmpty() });
    expect(plan.decisions).toHaveLength(1);
    expect(plan.decisions[0]).toMatchObject({ method: 'emptiness', reason: 'Empty' });
    expect(plan.decisions[0]?.nodes).toHaveLength(10);
    expect(plan.decisions[0]?.savingsPerHour).toBeCloseTo(10 * 0.2);
    expect(plan.staying).toEqual([]);
  });

  it('should only allow 3 empty nodes to be disrupted', () => {
    const plan = disruptionFor({
      nodes: tenEmpty(),
      nodePools: [aDisruptionPool({ budgets: [{ nodes: '30%' }] })],
    });
    expect(plan.decisions[0]?.nodes).toHaveLength(3);
    expect(plan.decisions[0]?.budgets).toEqual([
      { nodePool: 'default', nodes: 3, allowed: 3, budget: 'nodes: 30%' },
    ]);
    expect(plan.staying.map((s) => s.code)).toEqual(Array(7).fill('Budget'));
    expect(plan.staying[0]?.reason).toMatch(
      /^empty, but over the Empty budget of NodePool default/,
    );
  });

  it('should allow no empty nodes to be disrupted', () => {
    const plan = disruptionFor({
      nodes: tenEmpty(),
      nodePools: [aDisruptionPool({ budgets: [{ nodes: '0' }] })],
    });
    expect(plan.decisions).toEqual([]);
    expect(plan.staying).toHaveLength(10);
  });

  it('counts nodes already deleting against the budget', () => {
    const nodes = [...tenEmpty(), aPoolNode({ name: 'going', deleting: true })];
    const plan = disruptionFor({
      nodes,
      nodePools: [aDisruptionPool({ budgets: [{ nodes: '2' }] })],
    });
    expect(plan.decisions[0]?.nodes).toHaveLength(1);
    expect(fates(plan).going).toBe('stay:Deleting');
  });

  it('leaves DaemonSet, mirror and finished pods out of "empty"', () => {
    const node = aPoolNode({ name: 'n1' });
    const pods = [
      aPod({ nodeName: 'n1', ownerKind: 'DaemonSet', cpu: '100m' }),
      aPod({ nodeName: 'n1', ownerKind: 'Node', cpu: '100m' }),
      { ...aPod({ nodeName: 'n1', cpu: '100m' }), phase: 'Succeeded' },
    ];
    expect(fates(disruptionFor({ nodes: [node], pods }))).toEqual({ n1: 'emptiness' });
  });

  it('waits for consolidateAfter since the last pod left or arrived', () => {
    const node = aPoolNode({ name: 'n1', created: '2026-06-01T11:59:00Z' });
    const plan = disruptionFor({
      nodes: [node],
      nodePools: [aDisruptionPool({ consolidateAfter: '5m', budgets: [{ nodes: '100%' }] })],
    });
    expect(plan.staying).toEqual([
      {
        node: 'n1',
        code: 'ConsolidateAfter',
        reason:
          'empty, but consolidateAfter (5m) has not passed since its pods last changed: 4m left',
      },
    ]);
  });

  it('counts a pod leaving as a pod event: a node emptied two minutes ago waits three more', () => {
    const nodePools = [aDisruptionPool({ consolidateAfter: '5m', budgets: [{ nodes: '100%' }] })];
    const emptied = (at: string) => [aPoolNode({ name: 'n1', lastPodEventTime: at })];
    const plan = disruptionFor({ nodes: emptied('2026-06-01T11:58:00Z'), nodePools });
    expect(plan.staying.map((s) => s.reason)).toEqual([
      'empty, but consolidateAfter (5m) has not passed since its pods last changed: 3m left',
    ]);
    const later = disruptionFor({ nodes: emptied('2026-06-01T11:54:00Z'), nodePools });
    expect(fates(later)).toEqual({ n1: 'emptiness' });
  });

  it('never removes nodes of a pool whose consolidateAfter is Never', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'n1' })],
      nodePools: [aDisruptionPool({ consolidateAfter: 'Never' })],
    });
    expect(fates(plan)).toEqual({ n1: 'stay:ConsolidateAfter' });
  });

  it('respects do-not-disrupt on the node and nominations', () => {
    const plan = disruptionFor({
      nodes: [
        aPoolNode({ name: 'kept', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
        aPoolNode({ name: 'nominated' }),
        aPoolNode({ name: 'free' }),
      ],
      nominated: new Set(['nominated']),
    });
    expect(fates(plan)).toEqual({
      kept: 'stay:DoNotDisrupt',
      nominated: 'stay:Nominated',
      free: 'emptiness',
    });
  });
});
