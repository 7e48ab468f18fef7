/**
 * Ported from core: pkg/controllers/disruption/staticdrift_test.go, with the cases of
 * emptiness_test.go and consolidation_test.go that leave static NodePools alone.
 */
import { describe, expect, it } from 'vitest';
import { computeTemplateHash } from '../../../functions/domain/disruption/template-hash.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { DisruptionBudget, NodePool } from '../../../functions/domain/node-pool.ts';
import { anInstanceType, aPod, withReservations } from '../../support/builders.ts';
import {
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
  type NodeOptions,
} from '../../support/disruption-builders.ts';

/** A static pool whose template changed since `stamped` nodes were made from it. */
function aStaticPool(options: {
  readonly replicas: number;
  readonly budgets?: readonly DisruptionBudget[];
  readonly nodeLimit?: string;
  readonly name?: string;
  readonly requirements?: NodePool['spec']['template']['spec']['requirements'];
}): NodePool {
  const pool = aDisruptionPool(
    {
      budgets: options.budgets ?? [{ nodes: '100%' }],
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
    },
    {
      name: options.name ?? 'static',
      ...(options.requirements === undefined
        ? {}
        : { template: { requirements: options.requirements } }),
    },
  );
  return {
    ...pool,
    spec: {
      ...pool.spec,
      replicas: options.replicas,
      template: { ...pool.spec.template, metadata: { labels: { team: 'b' } } },
      ...(options.nodeLimit === undefined ? {} : { limits: { nodes: options.nodeLimit } }),
    },
  };
}

/** A node made from the template before it changed: drifted. */
function drifted(options: NodeOptions) {
  const { hash, version } = computeTemplateHash(aDisruptionPool(undefined));
  return aPoolNode({
    nodePool: 'static',
    ...options,
    claimAnnotations: {
      'karpenter.sh/nodepool-hash': hash,
      'karpenter.sh/nodepool-hash-version': version,
    },
  });
}

const driftedNodes = (count: number, nodePool = 'static') =>
  Array.from({ length: count }, (_, i) => drifted({ name: `${nodePool}-${i}`, nodePool }));

const methods = (plan: ReturnType<typeof disruptionFor>) => plan.decisions.map((d) => d.method);

describe('static drift', () => {
  it.each([
    { case: 'a count', budgets: [{ nodes: '2', reasons: ['Drifted' as const] }], replaced: 2 },
    {
      case: 'a percentage',
      budgets: [{ nodes: '40%', reasons: ['Drifted' as const] }],
      replaced: 2,
    },
    { case: 'no budget left', budgets: [{ nodes: '0' }], replaced: 0 },
  ])(
    'replaces as many drifted nodes at once as a budget of $case allows',
    ({ budgets, replaced }) => {
      // Prepare
      const pool = aStaticPool({ replicas: 5, budgets });

      // Act
      const plan = disruptionFor({ nodes: driftedNodes(5), nodePools: [pool] });

      // Assess
      expect(plan.decisions).toHaveLength(replaced);
      for (const decision of plan.decisions) {
        expect(decision).toMatchObject({ method: 'drift', reason: 'Drifted' });
        expect(decision.nodes).toHaveLength(1);
        expect(decision.replacements).toEqual([
          expect.objectContaining({
            nodePool: 'static',
            pods: [],
            labels: expect.objectContaining({ team: 'b' }),
          }),
        ]);
      }
      const staying = plan.staying.map((s) => s.code);
      expect(staying).toEqual(Array(5 - replaced).fill('Budget'));
    },
  );

  it('keeps budgets of several static pools apart', () => {
    // Prepare
    const budgets = [{ nodes: '1' }];
    const pools = [
      aStaticPool({ name: 'static', replicas: 3, budgets }),
      aStaticPool({ name: 'other', replicas: 3, budgets }),
    ];
    const nodes = [...driftedNodes(3, 'static'), ...driftedNodes(3, 'other')];

    // Act
    const plan = disruptionFor({ nodes, nodePools: pools });

    // Assess
    expect(plan.decisions.map((d) => d.budgets[0]?.nodePool).sort()).toEqual(['other', 'static']);
  });

  it.each([
    { case: 'none', nodeLimit: '5', replaced: 0 },
    { case: 'some', nodeLimit: '7', replaced: 2 },
    { case: 'all', nodeLimit: '10', replaced: 5 },
  ])('replaces only as many as limits.nodes leaves room for: $case', ({ nodeLimit, replaced }) => {
    // Prepare
    const pool = aStaticPool({ replicas: 5, nodeLimit });

    // Act
    const plan = disruptionFor({ nodes: driftedNodes(5), nodePools: [pool] });

    // Assess
    expect(plan.decisions).toHaveLength(replaced);
    expect(plan.staying.map((s) => s.code)).toEqual(Array(5 - replaced).fill('NodeLimit'));
  });

  it('waits while the pool is over its replicas, and replaces once it is not', () => {
    // Prepare
    const pool = aStaticPool({ replicas: 1 });
    const [first, second] = driftedNodes(2);
    if (first === undefined || second === undefined) throw new Error('two nodes expected');
    const pods = [aPod({ nodeName: first.node.name, cpu: '1' })];

    // Act
    const over = disruptionFor({ nodes: [first, second], pods, nodePools: [pool] });
    const scaled = disruptionFor({
      nodes: [
        first,
        {
          ...second,
          nodeClaim: {
            ...second.nodeClaim,
            metadata: { ...second.nodeClaim.metadata, deletionTimestamp: '2026-06-01T11:00:00Z' },
          },
        },
      ],
      pods,
      nodePools: [pool],
    });

    // Assess
    expect(methods(over)).toEqual([]);
    expect(over.staying.map((s) => s.code)).toEqual(['Later', 'Later']);
    expect(fates(scaled)[first.node.name]).toBe('drift');
  });

  it('fills a reservation with replacements only while it has room', () => {
    // Prepare: one instance left in the reservation, two drifted nodes to replace
    const reserving = aStaticPool({
      replicas: 2,
      requirements: [
        { key: Label.capacityType, operator: 'In', values: ['reserved', 'on-demand'] },
      ],
    });
    const small = anInstanceType({ name: 'small', cpu: 4, memoryGiB: 16, price: 0.1 });
    const catalog = [withReservations(small, ['cr-small', 1])];

    // Act
    const plan = disruptionFor({ nodes: driftedNodes(2), nodePools: [reserving], catalog });

    // Assess
    const replacements = plan.decisions.flatMap((d) => d.replacements);
    expect(replacements.map((r) => r.labels[Label.capacityReservationId]).sort()).toEqual([
      'cr-small',
      undefined,
    ]);
    expect(replacements.map((r) => r.offering.capacityType).sort()).toEqual([
      'on-demand',
      'reserved',
    ]);
  });

  it('leaves alone nodes that have not drifted or are annotated do-not-disrupt', () => {
    // Prepare
    const pool = aStaticPool({ replicas: 2 });
    const current = aPoolNode({
      name: 'current',
      nodePool: 'static',
      claimAnnotations: {
        'karpenter.sh/nodepool-hash': computeTemplateHash(pool).hash,
        'karpenter.sh/nodepool-hash-version': computeTemplateHash(pool).version,
      },
    });
    const guarded = drifted({
      name: 'guarded',
      annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
    });

    // Act
    const plan = disruptionFor({ nodes: [current, guarded], nodePools: [pool] });

    // Assess
    expect(fates(plan)).toEqual({ current: 'stay:StaticNodePool', guarded: 'stay:DoNotDisrupt' });
  });
});

describe('static NodePools and consolidation', () => {
  it('are never emptied nor consolidated, whatever their consolidation policy', () => {
    // Prepare: an empty node and two underused ones, on a pool whose template has not changed
    const pool = aStaticPool({ replicas: 3 });
    const { hash, version } = computeTemplateHash(pool);
    const stamped = (name: string) =>
      aPoolNode({
        name,
        nodePool: 'static',
        cpu: 8,
        claimAnnotations: {
          'karpenter.sh/nodepool-hash': hash,
          'karpenter.sh/nodepool-hash-version': version,
        },
      });
    const nodes = [stamped('empty'), stamped('a'), stamped('b')];
    const pods = [aPod({ nodeName: 'a', cpu: '1' }), aPod({ nodeName: 'b', cpu: '1' })];

    // Act
    const plan = disruptionFor({ nodes, pods, nodePools: [pool] });

    // Assess
    expect(plan.decisions).toEqual([]);
    expect(fates(plan)).toEqual({
      a: 'stay:StaticNodePool',
      b: 'stay:StaticNodePool',
      empty: 'stay:StaticNodePool',
    });
  });
});
