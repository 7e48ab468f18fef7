/** Ported from core: pkg/controllers/disruption/consolidation_test.go. */
import { describe, expect, it } from 'vitest';
import { planDisruption } from '../../../functions/domain/disruption/disruption-plan.ts';
import { clusterLimits } from '../../../functions/domain/limits/cluster-limits.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { aPod } from '../../support/builders.ts';
import {
  aBudget,
  aCatalog,
  aDisruptionInput,
  aDisruptionPool,
  aPoolNode,
  disruptionFor,
  fates,
} from '../../support/disruption-builders.ts';

const app = (node: string, cpu: string, extra: Parameters<typeof aPod>[0] = {}) =>
  aPod({ nodeName: node, cpu, labels: { app: 'web' }, ...extra });

/** A pool whose nodes are never consolidated, but take pods moved off others. */
const HOST_POOL = aDisruptionPool({ consolidateAfter: 'Never' }, { name: 'host' });
const POOLS = [HOST_POOL, aDisruptionPool({ budgets: [{ nodes: '100%' }] })];
const host = () => aPoolNode({ name: 'host', nodePool: 'host', cpu: 8 });

describe('consolidation: delete', () => {
  it('can delete nodes whose pods fit on the others, onto a node whose consolidateAfter is Never', () => {
    const plan = disruptionFor({
      nodes: [host(), aPoolNode({ name: 'small', cpu: 2 })],
      pods: [app('host', '2'), app('small', '1')],
      nodePools: POOLS,
    });
    expect(plan.decisions).toHaveLength(1);
    expect(plan.decisions[0]).toMatchObject({
      method: 'consolidation-delete',
      nodes: ['small'],
      replacements: [],
    });
    expect(plan.decisions[0]?.savingsPerHour).toBeCloseTo(0.1);
    expect(fates(plan).host).toBe('stay:ConsolidateAfter');
  });

  it("won't delete nodes if it would make a non-pending pod go pending", () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'a', cpu: 4 }), aPoolNode({ name: 'b', cpu: 4 })],
      pods: [app('a', '3'), app('b', '3')],
      catalog: aCatalog({ launchable: false }),
    });
    expect(plan.decisions).toEqual([]);
    expect(plan.staying.map((s) => s.code)).toEqual(['NoPlaceForPods', 'NoPlaceForPods']);
    expect(plan.staying[0]?.reason).toMatch(/would fit nowhere else/);
    // Karpenter's sentence for it (core: scheduling/scheduler.go NonPendingPodSchedulingErrors)
    expect(plan.staying[0]?.unconsolidatable).toMatch(
      /^Not all pods would schedule, default\/[^ ]+ => .+ $/,
    );
  });

  it('considers PDBs: a budget allowing no disruption keeps the node', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'big', cpu: 8 }), aPoolNode({ name: 'small', cpu: 2 })],
      pods: [app('big', '1', { labels: { app: 'other' } }), app('small', '1')],
      podDisruptionBudgets: [
        aBudget({ name: 'web', matchLabels: { app: 'web' }, disruptionsAllowed: 0 }),
      ],
    });
    expect(fates(plan).small).toBe('stay:PodsBlock');
    expect(plan.staying.find((s) => s.node === 'small')?.reason).toMatch(
      /^PodDisruptionBudget default\/web allows no disruption now/,
    );
  });

  it('refuses pods selected by several PDBs, as the Eviction API does', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'big', cpu: 8 }), aPoolNode({ name: 'small', cpu: 2 })],
      pods: [app('small', '1')],
      podDisruptionBudgets: [
        aBudget({ name: 'one', matchLabels: { app: 'web' }, disruptionsAllowed: 5 }),
        aBudget({ name: 'two', matchLabels: { app: 'web' }, disruptionsAllowed: 5 }),
      ],
    });
    expect(plan.staying.find((s) => s.node === 'small')?.reason).toMatch(
      /several PodDisruptionBudgets/,
    );
  });

  // The pod was created two hours before NOW: a duration annotation has run out after 2h.
  it.each([
    { value: 'true', fate: 'stay:PodsBlock' },
    { value: '3h', fate: 'stay:PodsBlock' },
    { value: '1h', fate: 'consolidation-delete' },
    { value: 'not-a-duration', fate: 'consolidation-delete' },
  ])('considers karpenter.sh/do-not-disrupt: $value on pods ($fate)', ({ value, fate }) => {
    const plan = disruptionFor({
      nodes: [host(), aPoolNode({ name: 'small', cpu: 2 })],
      nodePools: POOLS,
      pods: [
        app('host', '1'),
        {
          ...app('small', '1'),
          annotations: { 'karpenter.sh/do-not-disrupt': value },
          creationTimestamp: '2026-06-01T10:00:00Z',
        },
      ],
    });
    expect(fates(plan).small).toBe(fate);
  });

  it('does not consolidate do-not-disrupt pods even when the pool has a terminationGracePeriod', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'big', cpu: 8 }), aPoolNode({ name: 'small', cpu: 2 })],
      pods: [{ ...app('small', '1'), annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }],
      nodePools: [
        aDisruptionPool(
          { budgets: [{ nodes: '100%' }] },
          { template: { terminationGracePeriod: '1h' } },
        ),
      ],
    });
    expect(fates(plan).small).toBe('stay:PodsBlock');
  });

  it("won't delete a node if its pods would have to go to an uninitialized node", () => {
    const plan = disruptionFor({
      nodes: [
        aPoolNode({ name: 'booting', cpu: 8, initialized: false }),
        aPoolNode({ name: 'small', cpu: 2 }),
      ],
      pods: [app('small', '1')],
      catalog: aCatalog({ launchable: false }),
    });
    expect(fates(plan)).toEqual({ booting: 'stay:NotInitialized', small: 'stay:NoPlaceForPods' });
    expect(plan.staying.find((s) => s.node === 'small')?.reason).toMatch(/not initialized yet/);
    expect(plan.staying.find((s) => s.node === 'small')?.unconsolidatable).toMatch(
      / => would schedule against uninitialized node\/booting $/,
    );
  });

  it('should not consolidate pods onto a destination node that is under its consolidateAfter window', () => {
    const pool = aDisruptionPool({ consolidateAfter: '1m', budgets: [{ nodes: '100%' }] });
    const nodes = [aPoolNode({ name: 'fresh', cpu: 2 }), aPoolNode({ name: 'old', cpu: 2 })];
    const pods = [
      { ...app('fresh', '500m'), creationTimestamp: '2026-06-01T11:59:30Z' },
      app('old', '500m'),
    ];
    const plan = disruptionFor({
      nodes,
      pods,
      nodePools: [pool],
      catalog: aCatalog({ launchable: false }),
    });
    expect(fates(plan)).toEqual({ fresh: 'stay:ConsolidateAfter', old: 'stay:NoPlaceForPods' });
    expect(plan.staying.find((s) => s.node === 'old')?.reason).toMatch(/consolidateAfter window/);
  });

  it('keeps a node whose pool consolidates only when empty', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'big', cpu: 8 }), aPoolNode({ name: 'small', cpu: 2 })],
      pods: [app('big', '1'), app('small', '1')],
      nodePools: [
        aDisruptionPool({ consolidationPolicy: 'WhenEmpty', budgets: [{ nodes: '100%' }] }),
      ],
    });
    expect(plan.staying.map((s) => s.code)).toEqual(['ConsolidationPolicy', 'ConsolidationPolicy']);
    expect(plan.staying.map((s) => s.unconsolidatable)).toEqual([
      'NodePool "default" has consolidation policy WhenEmpty, but node is not empty',
      'NodePool "default" has consolidation policy WhenEmpty, but node is not empty',
    ]);
  });

  it('should only allow 3 nodes to be deleted in multi node consolidation', () => {
    const nodes = [
      aPoolNode({ name: 'host', cpu: 20 }),
      ...Array.from({ length: 6 }, (_, i) => aPoolNode({ name: `n${i}`, cpu: 2 })),
    ];
    const pods = [app('host', '1'), ...nodes.slice(1).map((n) => app(n.node.name, '500m'))];
    const plan = disruptionFor({
      nodes,
      pods,
      nodePools: [aDisruptionPool({ budgets: [{ nodes: '3' }] })],
    });
    expect(plan.decisions).toHaveLength(1);
    expect(plan.decisions[0]?.method).toBe('consolidation-multi');
    expect(plan.decisions[0]?.nodes).toHaveLength(3);
    expect(plan.staying.filter((s) => s.code === 'Budget')).toHaveLength(4);
  });
});

/** A pool that launches only the given capacity type, with room in its budget for every node. */
function aPoolOf(capacityType: 'spot' | 'on-demand', limits?: Record<string, string>) {
  const requirements = [
    { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: [capacityType] },
  ];
  const pool = aDisruptionPool({ budgets: [{ nodes: '100%' }] }, { template: { requirements } });
  return limits === undefined ? pool : { ...pool, spec: { ...pool.spec, limits } };
}

describe('consolidation: replace', () => {
  it('replaces a node with one strictly cheaper node', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'big', cpu: 16 })],
      pods: [app('big', '1500m')],
      nodePools: [aPoolOf('on-demand')],
    });
    const [decision] = plan.decisions;
    expect(decision?.method).toBe('consolidation-replace');
    expect(decision?.replacements[0]?.instanceType.name).toBe('c.2x');
    expect(decision?.savingsPerHour).toBeCloseTo(0.8 - 0.1);
    // Every option left on the replacement is cheaper than the node it replaces.
    const options = decision?.replacements[0]?.instanceTypeOptions.map((it) => it.name) ?? [];
    expect(options).not.toContain('c.16x');
    expect(options.length).toBeGreaterThan(0);
  });

  it('does not replace a node when the replacement beside it would pass a limit', () => {
    // Prepare: the node ($0.80) and its replacement ($0.10) run together until it drains
    const input = (limits: Record<string, string>, clusterNodes?: string) => ({
      nodes: [aPoolNode({ name: 'big', cpu: 16 })],
      pods: [app('big', '1500m')],
      nodePools: [aPoolOf('on-demand', limits)],
      ...(clusterNodes === undefined
        ? {}
        : { clusterLimits: clusterLimits({ nodes: clusterNodes }) }),
    });

    // Act
    const roomy = disruptionFor(input({ 'nodesmith.io/hourly-cost': '0.95' }));
    const tight = disruptionFor(input({ 'nodesmith.io/hourly-cost': '0.85' }));
    const oneNode = disruptionFor(input({}, '1'));

    // Assess
    expect(roomy.decisions.map((d) => d.method)).toEqual(['consolidation-replace']);
    expect(tight.decisions).toEqual([]);
    expect(oneNode.decisions).toEqual([]);
  });

  it.each<{
    readonly name: string;
    readonly node: Omit<Parameters<typeof aPoolNode>[0], 'name'>;
    readonly pods: readonly Pod[];
    readonly nodePools?: readonly NodePool[];
    readonly code: string;
    readonly reason: RegExp;
    /** Karpenter's Unconsolidatable message (core: consolidation.go computeConsolidation). */
    readonly unconsolidatable: string;
  }>([
    {
      name: "won't replace an on-demand node if the replacement is not cheaper",
      node: { cpu: 2 },
      pods: [app('n', '1500m')],
      nodePools: [aPoolOf('on-demand')],
      code: 'NoCheaperReplacement',
      reason: /^no cheaper replacement: the cheapest node for its pods, c\.2x/,
      unconsolidatable: "Can't replace with a cheaper node",
    },
    {
      name: 'cannot replace spot with spot with fewer than 15 cheaper instance types',
      node: { cpu: 10, capacityType: 'spot' },
      pods: [app('n', '1500m')],
      nodePools: [aPoolOf('spot')],
      code: 'SpotToSpot',
      reason: /at least 15 cheaper instance types; 8 are/,
      unconsolidatable:
        'SpotToSpotConsolidation requires 15 cheaper instance type options than the current candidate to consolidate, got 8',
    },
    {
      name: 'never replaces one node by two',
      node: { cpu: 20 },
      pods: [app('n', '1', { hostPort: 80 }), app('n', '1', { hostPort: 80 })],
      code: 'TooManyReplacements',
      reason: /would need 2 new nodes/,
      unconsolidatable: "Can't remove without creating 2 candidates",
    },
  ])('$name', ({ node, pods, nodePools, code, reason, unconsolidatable }) => {
    // Act
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'n', ...node })],
      pods,
      ...(nodePools === undefined ? {} : { nodePools }),
    });

    // Assess
    expect(plan.staying).toEqual([
      { node: 'n', code, reason: expect.stringMatching(reason), unconsolidatable },
    ]);
  });

  it('replaces spot with spot when 15 cheaper types exist, launching only the 15 cheapest', () => {
    const plan = disruptionFor({
      nodes: [aPoolNode({ name: 'n', cpu: 20, capacityType: 'spot' })],
      pods: [app('n', '500m')],
      nodePools: [aPoolOf('spot')],
    });
    const replacement = plan.decisions[0]?.replacements[0];
    expect(replacement?.instanceTypeOptions).toHaveLength(15);
    expect(replacement?.offering.capacityType).toBe('spot');
  });

  it('can merge 3 nodes into 1 if the candidates have both spot and on-demand', () => {
    const nodes = [
      aPoolNode({ name: 'a', cpu: 4, capacityType: 'spot' }),
      aPoolNode({ name: 'b', cpu: 4, capacityType: 'on-demand' }),
      aPoolNode({ name: 'c', cpu: 4, capacityType: 'spot' }),
    ];
    const plan = disruptionFor({ nodes, pods: nodes.map((n) => app(n.node.name, '1')) });
    expect(plan.decisions).toHaveLength(1);
    expect(plan.decisions[0]).toMatchObject({ method: 'consolidation-multi' });
    expect(plan.decisions[0]?.nodes).toHaveLength(3);
    expect(plan.decisions[0]?.replacements).toHaveLength(1);
  });
});

describe('disruption plans', () => {
  it('list every managed node exactly once and leave other nodes out', () => {
    const nodes = [
      aPoolNode({ name: 'empty' }),
      aPoolNode({ name: 'busy', cpu: 8 }),
      aPoolNode({ name: 'small', cpu: 2 }),
      aPoolNode({ name: 'booting', initialized: false }),
      aPoolNode({ name: 'orphan', nodePool: 'gone' }),
    ];
    const unmanaged = aPoolNode({ name: 'static', labels: {} });
    const { 'karpenter.sh/nodepool': _drop, ...labels } = unmanaged.node.labels;
    const plan = disruptionFor({
      nodes: [...nodes, { ...unmanaged, node: { ...unmanaged.node, labels } }],
      pods: [app('busy', '6'), app('small', '1')],
    });
    const listed = [...plan.decisions.flatMap((d) => d.nodes), ...plan.staying.map((s) => s.node)];
    expect(listed.sort()).toEqual(['booting', 'busy', 'empty', 'orphan', 'small']);
    expect(fates(plan).orphan).toBe('stay:UnknownNodePool');
  });

  it("leave out a node with a NodePool label but no claim, such as Karpenter's, empty or not", () => {
    // Prepare: two empty nodes of the same pool; only one has a claim
    const ours = aPoolNode({ name: 'ours' });
    const karpenters = aPoolNode({ name: 'karpenters' });
    const input = aDisruptionInput({ nodes: [ours, karpenters] });
    // Act
    const plan = planDisruption({ ...input, nodeClaims: [ours.nodeClaim] });
    // Assess
    const listed = [...plan.decisions.flatMap((d) => d.nodes), ...plan.staying.map((s) => s.node)];
    expect(listed).toEqual(['ours']);
  });

  it('are the same for the same snapshot', () => {
    const input = aDisruptionInput({
      nodes: Array.from({ length: 12 }, (_, i) => aPoolNode({ name: `n${i}`, cpu: 2 + (i % 5) })),
      pods: Array.from({ length: 12 }, (_, i) => app(`n${i}`, `${300 + 100 * i}m`)),
    });
    expect(planDisruption(input)).toEqual(planDisruption(input));
  });
});
