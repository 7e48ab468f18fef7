/** A limit lowered below what runs stops launches; it never takes a node away (as Karpenter). */
import { describe, expect, it } from 'vitest';
import { clusterLimits } from '../../../functions/domain/limits/cluster-limits.ts';
import { aPod } from '../../support/builders.ts';
import { aDisruptionPool, aPoolNode, disruptionFor } from '../../support/disruption-builders.ts';
import { planFor } from '../../support/scheduling-builders.ts';

const busy = (node: string) => aPod({ nodeName: node, cpu: '1500m', labels: { app: 'web' } });

describe('a limit lowered below usage', () => {
  const nodes = [aPoolNode({ name: 'a', cpu: 2 }), aPoolNode({ name: 'b', cpu: 2 })];
  const pool = aDisruptionPool({ budgets: [{ nodes: '100%' }] });
  const lowered = {
    ...pool,
    spec: { ...pool.spec, limits: { nodes: '0', 'nodesmith.io/hourly-cost': '0' } },
  };

  it('takes no node away', () => {
    const plan = disruptionFor({
      nodes,
      pods: [busy('a'), busy('b')],
      nodePools: [lowered],
      clusterLimits: clusterLimits({ nodes: '1' }),
    });
    expect(plan.decisions).toEqual([]);
    expect(plan.staying.map((s) => s.node).sort()).toEqual(['a', 'b']);
  });

  it('launches nothing more until usage is below it', () => {
    const plan = planFor({
      pods: [aPod({ name: 'more', cpu: '1' })],
      nodes: nodes.map((n) => ({ ...n.node, taints: [{ key: 'full', effect: 'NoSchedule' }] })),
      nodeClaims: nodes.map((n) => n.nodeClaim),
      nodePools: [pool],
      clusterLimits: clusterLimits({ nodes: '1' }),
    });
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toBe(
      'The cluster would exceed its nodes limit: 2 of 1 used',
    );
  });
});
