/**
 * Ported from core: pkg/controllers/disruption/balanced_test.go, balanced_scoring_test.go,
 * balanced_adversarial_test.go and balanced_integration_test.go. Karpenter's example pool is
 * priced in dollars a day (m7i.xlarge at $4.84); the plan-level cases use the test catalog's
 * `c.<n>x` types at $0.05 per vCPU an hour instead.
 */
import { describe, expect, it } from 'vitest';
import {
  approvedMessage,
  BALANCED_K,
  isApproved,
  type PoolTotals,
  score,
  scoreMove,
} from '../../../functions/domain/disruption/balanced-score.ts';
import type { Candidate } from '../../../functions/domain/disruption/candidate.ts';
import { DisruptionState } from '../../../functions/domain/disruption/disruption-state.ts';
import { evaluateBalanced } from '../../../functions/domain/disruption/methods/balanced.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { anInstanceType, aPod } from '../../support/builders.ts';
import {
  aCatalog,
  aDisruptionInput,
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
} from '../../support/disruption-builders.ts';

/** RFC example pool: eight m7i.xlarge and two m7i.2xlarge, 80 pods: $58.08 a day, 90 to disrupt. */
const DEFAULT_TOTALS: PoolTotals = { totalCost: 58.08, totalDisruptionCost: 90 };

describe('ScoreMove', () => {
  it.each<{
    readonly name: string;
    readonly savings: number;
    readonly disruption: number;
    readonly totals?: PoolTotals;
    readonly k?: number;
    readonly approved: boolean;
  }>([
    {
      name: 'approves an oversized node consolidation',
      savings: 7.26,
      disruption: 4,
      approved: true,
    },
    { name: 'approves a spare capacity delete', savings: 4.84, disruption: 5, approved: true },
    { name: 'rejects a marginal move', savings: 2.42, disruption: 9, approved: false },
    {
      name: 'rejects a well-packed node with zero savings',
      savings: 0,
      disruption: 11,
      approved: false,
    },
    {
      name: 'approves a replace in a uniform pool',
      savings: 2.42,
      disruption: 9,
      totals: { totalCost: 48.4, totalDisruptionCost: 90 },
      approved: true,
    },
    {
      name: 'approves a low-disruption node when disruption varies across nodes',
      savings: 4.84,
      disruption: 5,
      totals: { totalCost: 58.08, totalDisruptionCost: 117 },
      approved: true,
    },
    {
      name: 'rejects a high-disruption node when disruption varies across nodes',
      savings: 4.84,
      disruption: 32,
      totals: { totalCost: 58.08, totalDisruptionCost: 117 },
      approved: false,
    },
    { name: 'rejects a marginal move at k=2', savings: 2.42, disruption: 9, k: 2, approved: false },
    { name: 'approves the same move at k=3', savings: 2.42, disruption: 9, k: 3, approved: true },
    { name: 'rejects the same move at k=1', savings: 2.42, disruption: 9, k: 1, approved: false },
  ])('$name', ({ savings, disruption, totals = DEFAULT_TOTALS, k = BALANCED_K, approved }) => {
    // Act
    const result = scoreMove(savings, disruption, totals, k);

    // Assess
    const savingsFraction = savings / totals.totalCost;
    const disruptionFraction = disruption / totals.totalDisruptionCost;
    expect(result).toEqual({ savingsFraction, disruptionFraction, k });
    expect(score(result)).toBeCloseTo(savings > 0 ? savingsFraction / disruptionFraction : 0, 6);
    expect(isApproved(result)).toBe(approved);
  });

  it.each([
    { name: 'high savings low disruption', savings: 20, disruption: 5, score: 4, approved: true },
    { name: 'equal fractions', savings: 10, disruption: 10, score: 1, approved: true },
    {
      name: 'low savings high disruption',
      savings: 5,
      disruption: 50,
      score: 0.1,
      approved: false,
    },
    { name: 'zero disruption cost', savings: 10, disruption: 0, score: Infinity, approved: true },
    { name: 'zero savings', savings: 0, disruption: 10, score: 0, approved: false },
    { name: 'negative savings', savings: -5, disruption: 10, score: 0, approved: false },
  ])('scores $name against a 100/100 pool', ({ savings, disruption, score: want, approved }) => {
    // Act
    const result = scoreMove(savings, disruption, { totalCost: 100, totalDisruptionCost: 100 });

    // Assess
    if (want === Infinity) expect(score(result)).toBe(Number.POSITIVE_INFINITY);
    else expect(score(result)).toBeCloseTo(want, 2);
    expect(isApproved(result)).toBe(approved);
  });

  it.each([
    {
      name: 'both savings and disruption are zero',
      savings: 0,
      disruption: 0,
      totals: DEFAULT_TOTALS,
    },
    {
      name: 'the nodepool costs nothing',
      savings: 4.84,
      disruption: 5,
      totals: { totalCost: 0, totalDisruptionCost: 90 },
    },
  ])('rejects when $name', ({ savings, disruption, totals }) => {
    // Act
    const result = scoreMove(savings, disruption, totals);

    // Assess
    expect(isApproved(result)).toBe(false);
  });

  it('scores the same regardless of pool size, and proportionally equivalent moves alike across pools', () => {
    // Act
    const ten = scoreMove(7.26, 4, DEFAULT_TOTALS);
    const hundred = scoreMove(7.26, 4, { totalCost: 580.8, totalDisruptionCost: 900 });
    const onDemand = scoreMove(4.84, 4, { totalCost: 48.4, totalDisruptionCost: 90 });
    const spot = scoreMove(1.45, 4, { totalCost: 14.5, totalDisruptionCost: 90 });

    // Assess
    expect(score(ten)).toBeCloseTo(score(hundred), 6);
    expect(score(onDemand)).toBeCloseTo(score(spot), 2);
    expect([onDemand, spot].every(isApproved)).toBe(true);
  });

  it("tells an approval with Karpenter's ConsolidationApproved message", () => {
    // Act
    const message = approvedMessage(scoreMove(10, 0, { totalCost: 100, totalDisruptionCost: 100 }));
    const finite = approvedMessage({ savingsFraction: 0.15, disruptionFraction: 0.1, k: 2 });

    // Assess
    expect(message).toBe('score +Inf >= threshold 0.50 (k: 2, savings 10.0%, disruption 0.0%)');
    expect(finite).toBe('score 1.50 >= threshold 0.50 (k: 2, savings 15.0%, disruption 10.0%)');
  });
});

/** Pods on a node, each costing 1 to evict unless `deletionCost` says otherwise. */
function podsOn(node: string, count: number, deletionCost?: string): Pod[] {
  return Array.from({ length: count }, () => {
    const pod = aPod({ nodeName: node, cpu: '100m' });
    return deletionCost === undefined
      ? pod
      : { ...pod, annotations: { 'controller.kubernetes.io/pod-deletion-cost': deletionCost } };
  });
}

function aPoolOf(name: string, policy: 'Balanced' | 'WhenEmptyOrUnderutilized'): NodePool {
  return aDisruptionPool(
    { consolidationPolicy: policy, consolidateAfter: '0s', budgets: [{ nodes: '100%' }] },
    { name },
  );
}

/** A disruption state over pools of `c.4x` nodes ($0.20 an hour), each running `pods` pods. */
function aState(
  pools: readonly NodePool[],
  nodes: readonly { name: string; pool: string; pods: number; instanceType?: string }[],
) {
  const built = nodes.map((n) =>
    aPoolNode({
      name: n.name,
      nodePool: n.pool,
      cpu: 4,
      ...(n.instanceType === undefined ? {} : { instanceType: n.instanceType }),
    }),
  );
  const pods = nodes.flatMap((n) => podsOn(n.name, n.pods));
  return new DisruptionState(aDisruptionInput({ nodes: built, pods, nodePools: pools }));
}

function candidatesOf(state: DisruptionState, names: readonly string[]): Candidate[] {
  return names.map((name) => {
    const found = state.candidates.find((c) => c.node.name === name);
    if (found === undefined) throw new Error(`no candidate ${name}`);
    return found;
  });
}

const BALANCED = aPoolOf('balanced', 'Balanced');
const UNDERUTILIZED = aPoolOf('default', 'WhenEmptyOrUnderutilized');
const named = (prefix: string, count: number, pool: string, pods = 1) =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}`, pool, pods }));

describe('NodePool totals', () => {
  it('count every node of the pool: its price, and 1 for the node plus 1 for each pod', () => {
    // Act
    const state = aState([BALANCED], named('node', 5, 'balanced'));

    // Assess
    expect(state.poolTotals('balanced')?.totalCost).toBeCloseTo(5 * 0.2);
    expect(state.poolTotals('balanced')?.totalDisruptionCost).toBeCloseTo(10);
  });

  it('count the disruption of a node whose price is unknown, but not a price for it', () => {
    // Act
    const state = aState(
      [BALANCED],
      [
        { name: 'good-1', pool: 'balanced', pods: 1 },
        { name: 'unknown', pool: 'balanced', pods: 1, instanceType: 'not-in-catalog' },
        { name: 'good-2', pool: 'balanced', pods: 1 },
      ],
    );

    // Assess
    expect(state.poolTotals('balanced')?.totalCost).toBeCloseTo(2 * 0.2);
    expect(state.poolTotals('balanced')?.totalDisruptionCost).toBeCloseTo(6);
  });

  it('count nodes that are no candidates, such as one not initialized yet', () => {
    // Prepare
    const nodes = [
      aPoolNode({ name: 'ready', nodePool: 'balanced', cpu: 4 }),
      aPoolNode({ name: 'booting', nodePool: 'balanced', cpu: 4, initialized: false }),
    ];

    // Act
    const state = new DisruptionState(
      aDisruptionInput({ nodes, pods: podsOn('booting', 3), nodePools: [BALANCED] }),
    );

    // Assess
    expect(state.candidates.map((c) => c.node.name)).toEqual(['ready']);
    expect(state.poolTotals('balanced')).toEqual({
      totalCost: expect.closeTo(0.4),
      totalDisruptionCost: 1 + 4,
    });
  });

  it('are not poisoned by a price that is not a number', () => {
    // Prepare
    const catalog = [
      ...aCatalog(),
      anInstanceType({ name: 'nan', cpu: 4, memoryGiB: 16, price: Number.NaN }),
    ];
    const nodes = ['good-1', 'nan', 'good-2'].map((name) =>
      aPoolNode({
        name,
        nodePool: 'balanced',
        cpu: 4,
        ...(name === 'nan' ? { instanceType: 'nan' } : {}),
      }),
    );

    // Act
    const state = new DisruptionState(aDisruptionInput({ nodes, catalog, nodePools: [BALANCED] }));

    // Assess
    const totals = state.poolTotals('balanced');
    expect(totals?.totalCost).toBeCloseTo(0.4);
    expect(Number.isNaN(score(scoreMove(0.2, 2, totals ?? DEFAULT_TOTALS)))).toBe(false);
  });
});

describe('EvaluateBalancedMove', () => {
  it('rejects a command with no candidates', () => {
    // Act
    const verdict = evaluateBalanced(aState([BALANCED], named('n', 2, 'balanced')), [], 1);

    // Assess
    expect(verdict).toEqual({ approved: false, scores: [] });
  });

  it('does not score pools under another policy, and approves for them', () => {
    // Prepare
    const state = aState([UNDERUTILIZED], named('n', 5, 'default'));

    // Act
    const verdict = evaluateBalanced(state, candidatesOf(state, ['n-0', 'n-1']), 0.4);

    // Assess
    expect(verdict).toEqual({ approved: true, scores: [] });
  });

  it('rejects when the candidate’s NodePool has no totals', () => {
    // Prepare: a candidate of a pool the state never saw
    const state = aState([BALANCED], named('n', 2, 'balanced'));
    const [candidate] = candidatesOf(state, ['n-0']);
    const stranger = { ...(candidate as Candidate), pool: aPoolOf('missing', 'Balanced') };

    // Act
    const verdict = evaluateBalanced(state, [stranger], 0.2);

    // Assess
    expect(verdict.approved).toBe(false);
    expect(verdict.scores.map((s) => [s.nodePool, score(s)])).toEqual([['missing', 0]]);
  });

  it('approves deleting one node of ten: a tenth of the cost for a tenth of the disruption', () => {
    // Prepare
    const state = aState([BALANCED], named('n', 10, 'balanced'));

    // Act
    const verdict = evaluateBalanced(state, candidatesOf(state, ['n-0']), 0.2);

    // Assess
    expect(verdict.approved).toBe(true);
    expect(verdict.scores.map(score)).toEqual([expect.closeTo(1)]);
  });

  it('approves deleting the only node of a pool, scoring 1', () => {
    // Prepare
    const state = aState([BALANCED], named('only', 1, 'balanced'));

    // Act
    const verdict = evaluateBalanced(state, candidatesOf(state, ['only-0']), 0.2);

    // Assess
    expect(verdict.approved).toBe(true);
    expect(verdict.scores[0]?.savingsFraction).toBeCloseTo(1);
  });

  it('splits a cross-pool saving by what each pool’s candidates cost', () => {
    // Prepare
    const state = aState(
      [BALANCED, UNDERUTILIZED],
      [...named('b', 5, 'balanced'), ...named('e', 5, 'default')],
    );

    // Act: one node of each pool deleted saves both their prices
    const verdict = evaluateBalanced(state, candidatesOf(state, ['b-0', 'e-0']), 0.4);

    // Assess
    expect(verdict.approved).toBe(true);
    expect(verdict.scores.map((s) => s.nodePool)).toEqual(['balanced']);
    expect(verdict.scores.map(score)).toEqual([expect.closeTo(1)]);
  });

  it('rejects when any Balanced pool rejects, every pool scored', () => {
    // Prepare: pool A ten light nodes; pool B a cheap node with 20 pods and a dear one with 1
    const poolA = aPoolOf('pool-a', 'Balanced');
    const poolB = aPoolOf('pool-b', 'Balanced');
    const nodes = [
      ...named('a', 10, 'pool-a').map((n) =>
        aPoolNode({ name: n.name, nodePool: 'pool-a', cpu: 4 }),
      ),
      aPoolNode({ name: 'b-heavy', nodePool: 'pool-b', cpu: 1 }),
      aPoolNode({ name: 'b-light', nodePool: 'pool-b', cpu: 10 }),
    ];
    const pods = [
      ...named('a', 10, 'pool-a').flatMap((n) => podsOn(n.name, 1)),
      ...podsOn('b-heavy', 20),
      ...podsOn('b-light', 1),
    ];
    const state = new DisruptionState(aDisruptionInput({ nodes, pods, nodePools: [poolA, poolB] }));

    // Act
    const verdict = evaluateBalanced(state, candidatesOf(state, ['a-0', 'b-heavy']), 0.2 + 0.05);

    // Assess
    const byPool = Object.fromEntries(verdict.scores.map((s) => [s.nodePool, isApproved(s)]));
    expect(byPool).toEqual({ 'pool-a': true, 'pool-b': false });
    expect(verdict.approved).toBe(false);
  });
});

describe('Balanced consolidation', () => {
  /** Nodes of the pool that count in its totals but are never candidates themselves. */
  const kept = { 'karpenter.sh/do-not-disrupt': 'true' };
  // A $0.80 node whose pods fit a cheaper one, beside nine $0.20 nodes too full to take them.
  const oversized = (pods: number, deletionCost?: string) => ({
    nodes: [
      aPoolNode({ name: 'big', cpu: 16 }),
      ...Array.from({ length: 9 }, (_, i) =>
        aPoolNode({ name: `full-${i}`, cpu: 4, annotations: kept }),
      ),
    ],
    pods: [
      ...podsOn('big', pods, deletionCost),
      ...Array.from({ length: 9 }, (_, i) => aPod({ nodeName: `full-${i}`, cpu: '4' })),
    ],
  });
  const pool = (policy: 'Balanced' | 'WhenEmptyOrUnderutilized') => [
    aDisruptionPool(
      { consolidationPolicy: policy, consolidateAfter: '0s', budgets: [{ nodes: '100%' }] },
      {
        template: {
          requirements: [
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
          ],
        },
      },
    ),
  ];

  it('approves replacing an oversized node, telling the score', () => {
    // Act
    const plan = disruptionFor({ ...oversized(1), nodePools: pool('Balanced') });

    // Assess
    const [decision] = plan.decisions;
    expect(decision?.method).toBe('consolidation-replace');
    expect(decision?.replacements[0]?.instanceTypeOptions.map((t) => t.name)).not.toContain(
      'c.16x',
    );
    expect(decision?.scores).toEqual([
      expect.objectContaining({
        nodePool: 'default',
        k: 2,
        message: expect.stringMatching(/ >= threshold 0\.50 \(k: 2, /),
      }),
    ]);
    expect(decision?.message).toMatch(
      /; Balanced NodePool default: score \d+\.\d\d >= threshold 0\.50/,
    );
  });

  it('refuses the replacement WhenEmptyOrUnderutilized takes when its pods make it too disruptive', () => {
    // Prepare: 25 pods on the big node: 26 of the pool's 44 to disrupt, to save $0.65 of $2.60
    const input = oversized(25);

    // Act
    const balanced = disruptionFor({ ...input, nodePools: pool('Balanced') });
    const underutilized = disruptionFor({ ...input, nodePools: pool('WhenEmptyOrUnderutilized') });

    // Assess
    expect(underutilized.decisions.map((d) => d.method)).toEqual(['consolidation-replace']);
    expect(balanced.decisions).toEqual([]);
    expect(balanced.staying.find((s) => s.node === 'big')).toEqual({
      node: 'big',
      code: 'ScoreBelowThreshold',
      reason: expect.stringMatching(
        /^Balanced: replaced by c\.\d+x .*, but score 0\.\d\d < threshold 0\.50 \(k: 2, savings 25\.0%, disruption 59\.1%\)$/,
      ),
    });
  });

  it('weighs pods by their deletion cost: pods cheap to evict make the same move pass', () => {
    // Act: the same 25 pods, each with a low deletion cost, cost a quarter as much to evict
    const plan = disruptionFor({ ...oversized(25, '-100000000'), nodePools: pool('Balanced') });

    // Assess
    expect(plan.decisions.map((d) => d.method)).toEqual(['consolidation-replace']);
  });

  it('does not simulate a node whose deletion could not pass, and says so', () => {
    // Prepare: a cheap node with many pods beside dear, lightly used ones
    const nodes = [
      aPoolNode({ name: 'cheap', cpu: 1 }),
      aPoolNode({ name: 'dear-0', cpu: 16 }),
      aPoolNode({ name: 'dear-1', cpu: 16 }),
    ];
    const pods = [
      ...podsOn('cheap', 8),
      aPod({ nodeName: 'dear-0', cpu: '15' }),
      aPod({ nodeName: 'dear-1', cpu: '15' }),
    ];

    // Act
    const plan = disruptionFor({ nodes, pods, nodePools: pool('Balanced') });

    // Assess
    expect(fates(plan).cheap).toBe('stay:ScoreBelowThreshold');
    expect(plan.staying.find((s) => s.node === 'cheap')?.reason).toMatch(
      /^Balanced: even deleting it would score 0\.\d\d < threshold 0\.50/,
    );
  });

  it('approves consolidating several underused nodes into fewer, scoring the pool once', () => {
    // Prepare: three $0.80 nodes, one pod each
    const nodes = ['a', 'b', 'c'].map((name) => aPoolNode({ name, cpu: 16 }));
    const pods = ['a', 'b', 'c'].flatMap((n) => [aPod({ nodeName: n, cpu: '1' })]);

    // Act
    const plan = disruptionFor({ nodes, pods, nodePools: pool('Balanced') });

    // Assess
    const [decision] = plan.decisions;
    expect(decision?.method).toBe('consolidation-multi');
    expect(decision?.nodes.length).toBeGreaterThanOrEqual(2);
    expect(decision?.scores).toHaveLength(1);
  });

  it('takes nothing when the budget allows no disruption', () => {
    // Prepare
    const pools = [
      aDisruptionPool({
        consolidationPolicy: 'Balanced',
        consolidateAfter: '0s',
        budgets: [{ nodes: '0%' }],
      }),
    ];

    // Act
    const plan = disruptionFor({ ...oversized(1), nodePools: pools });

    // Assess
    expect(plan.decisions).toEqual([]);
    expect(fates(plan).big).toBe('stay:Budget');
  });

  it('deletes when the pods fit on other nodes, saving the whole price', () => {
    // Prepare
    const nodes = [
      aPoolNode({ name: 'roomy', cpu: 4, annotations: kept }),
      aPoolNode({ name: 'dear', cpu: 8 }),
    ];
    const pods = [...podsOn('roomy', 2), aPod({ nodeName: 'dear', cpu: '500m' })];

    // Act
    const plan = disruptionFor({ nodes, pods, nodePools: pool('Balanced') });

    // Assess
    expect(plan.decisions).toEqual([
      expect.objectContaining({
        method: 'consolidation-delete',
        nodes: ['dear'],
        savingsPerHour: expect.closeTo(0.4),
      }),
    ]);
  });

  it('scores Balanced pools while a pool under another policy consolidates as before', () => {
    // Prepare: an oversized node in each pool, with room for neither's pods elsewhere
    const pools = [
      ...pool('Balanced').map((p) => ({ ...p, metadata: { ...p.metadata, name: 'balanced' } })),
      ...pool('WhenEmptyOrUnderutilized'),
    ];
    const nodes = [
      aPoolNode({ name: 'balanced-big', nodePool: 'balanced', cpu: 16 }),
      aPoolNode({ name: 'default-big', cpu: 16 }),
    ];
    const pods = [
      aPod({ nodeName: 'balanced-big', cpu: '1' }),
      aPod({ nodeName: 'default-big', cpu: '1' }),
    ];

    // Act
    const plan = disruptionFor({ nodes, pods, nodePools: pools });

    // Assess
    const taken = plan.decisions.flatMap((d) => d.nodes).sort();
    expect(taken).toEqual(['balanced-big', 'default-big']);
    expect(plan.decisions.flatMap((d) => d.scores ?? []).map((s) => s.nodePool)).toEqual([
      'balanced',
    ]);
  });
});
