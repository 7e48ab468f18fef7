/**
 * Ported from core: pkg/controllers/static/provisioning/suite_test.go and
 * static/deprovisioning/suite_test.go — what a static NodePool launches and gives up.
 */
import { describe, expect, it } from 'vitest';
import { Annotation, Label } from '../../../functions/domain/labels.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import {
  planStaticPools,
  type StaticPoolsInput,
} from '../../../functions/domain/static-pools/static-scaling.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import {
  aNodePool,
  anInstanceType,
  aPod,
  inPlacementGroup,
  instanceTypesFor,
  withReservations,
} from '../../support/builders.ts';
import { aCatalog, NOW_MS, YESTERDAY } from '../../support/disruption-builders.ts';

function aStaticPool(replicas: number, options: Partial<NodePool['spec']> = {}): NodePool {
  const pool = aNodePool({ name: 'static', labels: { 'custom-label': 'custom-value' } });
  return { ...pool, spec: { ...pool.spec, replicas, ...options } };
}

/** An initialized claim of the static pool, on node `name`. */
function aClaim(name: string, overrides: Partial<NodeClaimRecord> = {}): NodeClaimRecord {
  return {
    ...aNewNodeClaim({ name, nodePool: 'static' }),
    phase: 'Initialized',
    providerID: `aws:///test-zone-a/i-${name}`,
    nodeName: name,
    timestamps: { Pending: YESTERDAY },
    version: 1,
    ...overrides,
  };
}

const deleting = (name: string) => aClaim(name, { phase: 'Draining' });
const replacing = (name: string) =>
  aClaim(name, {
    disruption: { reason: 'Drifted', message: 'drifted', decidedAt: YESTERDAY, stage: 'Replacing' },
  });
const unresolved = (name: string) =>
  aClaim(name, { phase: 'Pending', providerID: undefined, nodeName: undefined });

function planFor(pool: NodePool, claims: readonly NodeClaimRecord[], pods: readonly Pod[] = []) {
  const input: StaticPoolsInput = {
    nodePools: [pool],
    nodeClasses: [],
    claims,
    pods,
    daemonSets: [],
    instanceTypes: instanceTypesFor([pool], aCatalog()),
    region: 'us-east-1',
    nowMs: NOW_MS,
  };
  return planStaticPools(input);
}

const names = (n: number, prefix = 'n') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('static provisioning', () => {
  it.each([
    {
      case: 'the pool is being deleted',
      pool: { ...aStaticPool(2), metadata: { name: 'static', deletionTimestamp: YESTERDAY } },
    },
    {
      case: 'the pool is not ready',
      pool: {
        ...aStaticPool(2),
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'NodeClassNotReady' }] },
      },
    },
    { case: 'replicas is not set (a dynamic pool)', pool: aNodePool({ name: 'static' }) },
    { case: 'replicas is zero', pool: aStaticPool(0) },
  ])('launches nothing when $case', ({ pool }) => {
    // Prepare, Act
    const plan = planFor(pool as NodePool, []);

    // Assess
    expect(plan.launches).toEqual([]);
    expect(plan.removals).toEqual([]);
  });

  it.each([
    { case: 'an empty pool', replicas: 2, existing: 0, launched: 2 },
    { case: 'a pool short of its replicas', replicas: 3, existing: 1, launched: 2 },
    { case: 'a pool at its replicas', replicas: 2, existing: 2, launched: 0 },
    { case: 'a pool over its replicas', replicas: 1, existing: 2, launched: 0 },
    { case: 'a large replica count', replicas: 1000, existing: 0, launched: 1000 },
  ])('launches the difference for $case', ({ replicas, existing, launched }) => {
    // Prepare
    const claims = names(existing).map((n) => aClaim(n));

    // Act
    const plan = planFor(aStaticPool(replicas), claims);

    // Assess
    expect(plan.launches).toHaveLength(launched);
    expect(plan.shortfalls).toEqual([]);
  });

  it("launches from the pool's template, on the cheapest compatible offering, for no pods", () => {
    // Prepare
    const pool = aStaticPool(1, {
      template: {
        ...aStaticPool(1).spec.template,
        metadata: { labels: { 'custom-label': 'custom-value' } },
      },
    });

    // Act
    const [claim] = planFor(pool, []).launches;

    // Assess
    expect(claim).toMatchObject({ nodePool: 'static', nodeClass: 'default', pods: [] });
    expect(claim?.labels).toMatchObject({
      'custom-label': 'custom-value',
      'karpenter.sh/nodepool': 'static',
    });
    expect(claim?.instanceType.name).toBe('c.1x');
    expect(claim?.offering.capacityType).toBe('spot');
    expect(claim?.instanceTypeOptions).toHaveLength(20);
  });

  it('counts claims not launched or registered yet as present', () => {
    // Prepare: one without a node, one launched, one registered
    const claims = [
      unresolved('a'),
      aClaim('b', { phase: 'Launched', nodeName: undefined }),
      aClaim('c', { phase: 'Registered' }),
    ];

    // Act
    const plan = planFor(aStaticPool(3), claims);

    // Assess
    expect(plan.launches).toEqual([]);
  });

  it('counts claims pending disruption as present, and replaces those being deleted', () => {
    // Prepare
    const pool = aStaticPool(3);

    // Act
    const withReplacing = planFor(pool, [aClaim('a'), aClaim('b'), replacing('c')]);
    const withDeleting = planFor(pool, [aClaim('a'), aClaim('b'), deleting('c')]);

    // Assess
    expect(withReplacing.launches).toHaveLength(0);
    expect(withDeleting.launches).toHaveLength(1);
  });

  it.each([
    { case: 'reached', replicas: 3, limit: '1', claims: [aClaim('a')], launched: 0, missing: 2 },
    { case: 'partly reached', replicas: 5, limit: '3', claims: [], launched: 3, missing: 2 },
    {
      case: 'counting claims being deleted',
      replicas: 2,
      limit: '2',
      claims: [aClaim('a'), deleting('b')],
      launched: 0,
      missing: 1,
    },
  ])('stops at limits.nodes when $case', ({ replicas, limit, claims, launched, missing }) => {
    // Prepare
    const pool = aStaticPool(replicas, { limits: { nodes: limit } });

    // Act
    const plan = planFor(pool, claims);

    // Assess
    expect(plan.launches).toHaveLength(launched);
    expect(plan.shortfalls).toEqual([
      { nodePool: 'static', missing, reason: `limits.nodes (${limit}) reached` },
    ]);
  });

  it('says so when no offering is available', () => {
    // Prepare
    const pool = aStaticPool(2);
    const input: StaticPoolsInput = {
      nodePools: [pool],
      nodeClasses: [],
      claims: [],
      pods: [],
      daemonSets: [],
      instanceTypes: instanceTypesFor([pool], aCatalog({ launchable: false })),
      nowMs: NOW_MS,
    };

    // Act
    const plan = planStaticPools(input);

    // Assess
    expect(plan.launches).toEqual([]);
    expect(plan.shortfalls[0]).toMatchObject({ nodePool: 'static', missing: 2 });
  });
});

/** A static pool that launches reserved capacity first, then on-demand. */
function aReservingPool(name: string, replicas: number): NodePool {
  const pool = aNodePool({
    name,
    requirements: [{ key: Label.capacityType, operator: 'In', values: ['reserved', 'on-demand'] }],
  });
  return { ...pool, spec: { ...pool.spec, replicas } };
}

/** Static pools over one type with two instances left in reservation `cr-small`. */
function reservingPlan(pools: readonly NodePool[], reservationsTaken: readonly string[] = []) {
  const small = anInstanceType({ name: 'small', cpu: 2, memoryGiB: 2, price: 0.1 });
  return planStaticPools({
    nodePools: pools,
    nodeClasses: [],
    claims: [],
    pods: [],
    daemonSets: [],
    instanceTypes: instanceTypesFor(pools, [withReservations(small, ['cr-small', 2])]),
    nowMs: NOW_MS,
    reservationsTaken,
  });
}

const reservationsOf = (plan: ReturnType<typeof planStaticPools>) =>
  plan.launches.map(
    (claim) => claim.labels[Label.capacityReservationId] ?? claim.offering.capacityType,
  );

describe('static provisioning into capacity reservations', () => {
  it('fills a reservation only while it has room, each reserved claim pinned to it', () => {
    // Act
    const plan = reservingPlan([aReservingPool('static', 3)]);

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-small', 'cr-small', 'on-demand']);
    expect(plan.launches[0]?.requirements.get(Label.capacityReservationId)?.values).toEqual(
      new Set(['cr-small']),
    );
  });

  it('counts a reservation shared by static pools once', () => {
    // Act
    const plan = reservingPlan([aReservingPool('one', 2), aReservingPool('two', 2)]);

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-small', 'cr-small', 'on-demand', 'on-demand']);
  });

  it('leaves out what the pass launched into the reservation since it was counted', () => {
    // Act
    const plan = reservingPlan([aReservingPool('static', 3)], ['cr-small']);

    // Assess
    expect(reservationsOf(plan)).toEqual(['cr-small', 'on-demand', 'on-demand']);
  });
});

const SPREAD: PlacementGroup = {
  id: 'pg-0s1',
  name: 'etcd',
  strategy: 'spread',
  spreadLevel: 'rack',
};

describe('static provisioning into a placement group', () => {
  /** The static pool's types, in `group`; its stored claims, so many launched in each zone. */
  function placedPlan(
    group: PlacementGroup,
    replicas: number,
    running: Readonly<Record<string, number>>,
  ) {
    const pool = aStaticPool(replicas);
    const type = anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 });
    const claims = Object.entries(running).flatMap(([zone, count]) =>
      names(count, zone).map((n) =>
        aClaim(n, {
          labels: {
            [Label.nodePool]: 'static',
            [Label.zone]: zone,
            [Label.placementGroupId]: group.id,
          },
        }),
      ),
    );
    return planStaticPools({
      nodePools: [pool],
      nodeClasses: [],
      claims,
      pods: [],
      daemonSets: [],
      instanceTypes: instanceTypesFor([pool], [inPlacementGroup(type, group)]),
      nowMs: NOW_MS,
    });
  }

  const zonesOf = (plan: ReturnType<typeof planStaticPools>) =>
    plan.launches.map((c) => c.offering.zone);

  it('launches a cluster group’s claims into the zone the group runs in', () => {
    // Act
    const cluster: PlacementGroup = { id: 'pg-0c1', name: 'mpi', strategy: 'cluster' };
    const plan = placedPlan(cluster, 3, { 'test-zone-b': 1 });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-b', 'test-zone-b']);
  });

  it('launches a spread group’s claims into zones with room', () => {
    // Act: six of the seven a zone takes run in test-zone-a already
    const plan = placedPlan(SPREAD, 9, { 'test-zone-a': 6 });

    // Assess
    expect(zonesOf(plan)).toEqual(['test-zone-a', 'test-zone-b', 'test-zone-b']);
    expect(plan.shortfalls).toEqual([]);
  });

  it('says why when the group has room in no zone', () => {
    // Act
    const full = { 'test-zone-a': 7, 'test-zone-b': 7, 'test-zone-c': 7 };
    const plan = placedPlan(SPREAD, 22, full);

    // Assess
    expect(plan.launches).toEqual([]);
    expect(plan.shortfalls).toEqual([
      {
        nodePool: 'static',
        missing: 1,
        reason:
          'placement group "etcd" (pg-0s1) is a spread group with 7 instances in test-zone-a, test-zone-b, test-zone-c, the most EC2 runs in a zone',
      },
    ]);
  });
});

const daemon = (node: string) =>
  aPod({ nodeName: node, namespace: 'kube-system', ownerKind: 'DaemonSet' });
const workload = (node: string, namespace = 'default') => aPod({ nodeName: node, namespace });
const protectedPod = (node: string): Pod => ({
  ...aPod({ nodeName: node }),
  annotations: { [Annotation.doNotDisrupt]: 'true' },
});

function removed(plan: ReturnType<typeof planFor>): string[] {
  return plan.removals.map((r) => r.claim).sort();
}

describe('static deprovisioning', () => {
  it.each([
    { case: 'over its replicas', replicas: 2, existing: 4, removed: 2 },
    { case: 'scaled to zero', replicas: 0, existing: 3, removed: 3 },
    { case: 'at its replicas', replicas: 3, existing: 3, removed: 0 },
    { case: 'under its replicas', replicas: 3, existing: 1, removed: 0 },
    { case: 'with no claims', replicas: 0, existing: 0, removed: 0 },
  ])('gives up the surplus of a pool $case', ({ replicas, existing, removed: count }) => {
    // Prepare
    const claims = names(existing).map((n) => aClaim(n));

    // Act
    const plan = planFor(aStaticPool(replicas), claims);

    // Assess
    expect(plan.removals).toHaveLength(count);
    for (const removal of plan.removals)
      expect(removal).toMatchObject({
        nodePool: 'static',
        message: expect.stringContaining(`wants ${replicas}`),
      });
  });

  it('counts only active claims, not those deleting or pending disruption', () => {
    // Prepare: four claims, three of them deleting, one wanted
    const claims = [aClaim('a'), deleting('b'), deleting('c'), deleting('d')];

    // Act
    const plan = planFor(aStaticPool(1), claims);
    const withReplacing = planFor(aStaticPool(2), [aClaim('a'), aClaim('b'), replacing('c')]);

    // Assess
    expect(plan.removals).toEqual([]);
    expect(withReplacing.removals).toEqual([]);
  });

  it('gives nothing up while the pool is being deleted', () => {
    // Prepare
    const pool = { ...aStaticPool(0), metadata: { name: 'static', deletionTimestamp: YESTERDAY } };

    // Act
    const plan = planFor(pool, [aClaim('a')]);

    // Assess
    expect(plan.removals).toEqual([]);
  });

  it('gives up claims that never launched first', () => {
    // Prepare
    const claims = [aClaim('a'), aClaim('b'), unresolved('c'), unresolved('d')];

    // Act
    const plan = planFor(aStaticPool(2), claims);

    // Assess
    expect(removed(plan)).toEqual(['c', 'd']);
  });

  it('gives up empty nodes (only DaemonSet pods) before busy ones', () => {
    // Prepare
    const claims = names(4).map((n) => aClaim(n));
    const pods = [daemon('n0'), workload('n1'), daemon('n2'), workload('n3')];

    // Act
    const plan = planFor(aStaticPool(2), claims, pods);

    // Assess
    expect(removed(plan)).toEqual(['n0', 'n2']);
    expect(plan.removals.every((r) => r.message.includes('has 4 nodes'))).toBe(true);
  });

  it('gives up busy nodes when empty ones are not enough', () => {
    // Prepare
    const claims = names(4).map((n) => aClaim(n));

    // Act
    const plan = planFor(aStaticPool(1), claims, [workload('n0'), workload('n2')]);

    // Assess
    expect(plan.removals).toHaveLength(3);
    expect(removed(plan)).toEqual(expect.arrayContaining(['n1', 'n3']));
  });

  // Two nodes of each: one system pod (low), a system and an app pod (high), a do-not-disrupt
  // pod (dnd), DaemonSet pods only (ds).
  const kinds = ['low', 'high', 'dnd', 'ds'] as const;
  const nodes = [0, 1].flatMap((i) => kinds.map((k) => `${k}-${i}`));
  const podsOf = (node: string): Pod[] => {
    if (node.startsWith('low')) return [workload(node, 'kube-system')];
    if (node.startsWith('high')) return [workload(node, 'kube-system'), workload(node)];
    if (node.startsWith('dnd')) return [protectedPod(node)];
    return [daemon(node)];
  };

  it.each([
    { case: 'to 6 drops DaemonSet-only nodes first', replicas: 6, kept: ['dnd', 'high', 'low'] },
    { case: 'to 4 drops the cheapest to disrupt next', replicas: 4, kept: ['dnd', 'high'] },
    { case: 'to 2 drops the costlier next', replicas: 2, kept: ['dnd'] },
    { case: 'to 0 drops do-not-disrupt last', replicas: 0, kept: [] },
  ])('scales down in disruption cost order: $case', ({ replicas, kept }) => {
    // Prepare
    const claims = nodes.map((n) => aClaim(n));

    // Act
    const plan = planFor(aStaticPool(replicas), claims, nodes.flatMap(podsOf));

    // Assess
    const gone = new Set(plan.removals.map((r) => r.claim));
    const left = nodes.filter((n) => !gone.has(n)).map((n) => n.split('-')[0]);
    expect([...new Set(left)].sort()).toEqual(kept);
    expect(left).toHaveLength(replicas);
  });
});
