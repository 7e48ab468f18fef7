import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import type { TopologySpreadConstraint } from '../../../../functions/domain/pod.ts';
import { aNodePool, anInstanceType, aPod } from '../../../support/builders.ts';
import {
  aManagedNode,
  appPods,
  aSpread,
  planFor,
  podsPerZone,
  zoneIn,
} from '../../../support/scheduling-builders.ts';

const CATALOG = [anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 })];

function webPods(count: number, spread: TopologySpreadConstraint, cpu = '100m') {
  return appPods('web', count, { cpu, topologySpreadConstraints: [spread] });
}

/**
 * node-a in test-zone-a, running `count` small pods labelled `labels` beside a filler of
 * `fillerCpu` that leaves it little room: the cluster part of a plan's input.
 */
function nodeARunning(labels: Record<string, string>, count: number, fillerCpu: string) {
  const { node, nodeClaim } = aManagedNode({ name: 'node-a', zone: 'test-zone-a' });
  const running = Array.from({ length: count }, (_, i) =>
    aPod({ name: `running-${i}`, cpu: '100m', labels, nodeName: 'node-a' }),
  );
  const filler = aPod({ name: 'filler', cpu: fillerCpu, nodeName: 'node-a' });
  return { pods: [...running, filler], nodes: [node], nodeClaims: [nodeClaim] };
}

describe('zonal topology spread', () => {
  it('spreads pods evenly across the zones', () => {
    // Prepare
    const pods = webPods(6, aSpread({ matchLabels: { app: 'web' } }));

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 2, 'test-zone-b': 2, 'test-zone-c': 2 });
    expect(plan.unschedulable).toEqual([]);
  });

  it('spreads with matchExpressions as with matchLabels', () => {
    // Prepare
    const spread: TopologySpreadConstraint = {
      maxSkew: 1,
      topologyKey: Label.zone,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
    };

    // Act
    const plan = planFor({ pods: webPods(3, spread), catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 1, 'test-zone-b': 1, 'test-zone-c': 1 });
  });

  it('spreads only over the zones the pool allows', () => {
    // Prepare
    const pool = aNodePool({ requirements: [zoneIn('test-zone-a', 'test-zone-b')] });

    // Act
    const plan = planFor({
      pods: webPods(4, aSpread({ matchLabels: { app: 'web' } })),
      nodePools: [pool],
      catalog: CATALOG,
    });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 2, 'test-zone-b': 2 });
  });

  it('fills the emptier zones first when existing pods are skewed', () => {
    // Prepare
    const cluster = nodeARunning({ app: 'web' }, 2, '3800m');
    const pods = webPods(2, aSpread({ matchLabels: { app: 'web' } }));

    // Act
    const plan = planFor({ ...cluster, pods: [...cluster.pods, ...pods], catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-b': 1, 'test-zone-c': 1 });
  });

  // The pool launches only in test-zone-a; test-zone-b has a node, but full.
  it.each([
    {
      name: 'never exceeds maxSkew, even against a zone only an existing full node offers',
      whenUnsatisfiable: 'DoNotSchedule' as const,
      perZone: { 'test-zone-a': 1 },
      refused: ['Topology', 'Topology'],
    },
    {
      name: 'relaxes a ScheduleAnyway spread that cannot be met',
      whenUnsatisfiable: 'ScheduleAnyway' as const,
      perZone: { 'test-zone-a': 3 },
      refused: [],
    },
  ])('$name', ({ whenUnsatisfiable, perZone, refused }) => {
    // Prepare
    const pool = aNodePool({ requirements: [zoneIn('test-zone-a')] });
    const other = aManagedNode({ name: 'node-b', zone: 'test-zone-b' });
    const blocker = aPod({ name: 'filler', cpu: '4', nodeName: 'node-b' });
    const pods = webPods(3, aSpread({ matchLabels: { app: 'web' }, whenUnsatisfiable }));

    // Act
    const plan = planFor({
      pods: [blocker, ...pods],
      nodes: [other.node],
      nodeClaims: [other.nodeClaim],
      nodePools: [pool],
      catalog: CATALOG,
    });

    // Assess
    expect(podsPerZone(plan)).toEqual(perZone);
    expect(plan.unschedulable.map((u) => u.reasons[0]?.code)).toEqual(refused);
  });

  it('counts only the pods the selector matches', () => {
    // Prepare
    const cluster = nodeARunning({ app: 'db' }, 3, '3000m');
    const pods = webPods(3, aSpread({ matchLabels: { app: 'web' } }));

    // Act
    const plan = planFor({ ...cluster, pods: [...cluster.pods, ...pods], catalog: CATALOG });

    // Assess
    expect(plan.existingNodes).toEqual([{ name: 'node-a', pods: ['default/web-0'] }]);
    expect(podsPerZone(plan)).toEqual({ 'test-zone-b': 1, 'test-zone-c': 1 });
  });

  it('treats the minimum as zero while fewer zones than minDomains are eligible', () => {
    // Prepare
    const pool = aNodePool({ requirements: [zoneIn('test-zone-a', 'test-zone-b')] });
    const pods = webPods(3, aSpread({ matchLabels: { app: 'web' }, minDomains: 3 }));

    // Act
    const plan = planFor({ pods, nodePools: [pool], catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 1, 'test-zone-b': 1 });
    expect(plan.unschedulable).toHaveLength(1);
  });

  it('spreads normally once minDomains zones are eligible', () => {
    // Prepare
    const pods = webPods(6, aSpread({ matchLabels: { app: 'web' }, minDomains: 3 }));

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 2, 'test-zone-b': 2, 'test-zone-c': 2 });
  });

  it('honours the nodeSelector of the pod when choosing zones to spread over', () => {
    // Prepare
    const pods = appPods('web', 4, {
      cpu: '100m',
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [zoneIn('test-zone-b', 'test-zone-c')] }],
          },
        },
      },
      topologySpreadConstraints: [aSpread({ matchLabels: { app: 'web' } })],
    });

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-b': 2, 'test-zone-c': 2 });
  });
});

describe('hostname topology spread', () => {
  it('puts one pod per node with maxSkew 1', () => {
    // Prepare
    const pods = webPods(3, aSpread({ topologyKey: Label.hostname, matchLabels: { app: 'web' } }));

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1]);
  });

  it('allows up to maxSkew pods more on one node', () => {
    // Prepare
    const pods = webPods(
      4,
      aSpread({ topologyKey: Label.hostname, maxSkew: 2, matchLabels: { app: 'web' } }),
    );

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([2, 2]);
  });

  it('spreads two deployments independently', () => {
    // Prepare
    const web = webPods(2, aSpread({ topologyKey: Label.hostname, matchLabels: { app: 'web' } }));
    const api = appPods('api', 2, {
      cpu: '100m',
      topologySpreadConstraints: [
        aSpread({ topologyKey: Label.hostname, matchLabels: { app: 'api' } }),
      ],
    });

    // Act
    const plan = planFor({ pods: [...web, ...api], catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
    for (const claim of plan.nodeClaims) {
      expect(claim.pods.map((p) => p.split('/')[1]?.split('-')[0]).sort()).toEqual(['api', 'web']);
    }
  });
});

describe('topology spread over other keys', () => {
  it('spreads over capacity types', () => {
    // Prepare
    const pods = webPods(
      4,
      aSpread({ topologyKey: Label.capacityType, matchLabels: { app: 'web' } }),
      '3',
    );

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    const perType = plan.nodeClaims.map((c) => c.offering.capacityType).sort();
    expect(perType).toEqual(['on-demand', 'on-demand', 'spot', 'spot']);
  });

  it('spreads over a custom key whose values come from the pool requirements', () => {
    // Prepare
    const pool = aNodePool({ requirements: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] });
    const pods = webPods(4, aSpread({ topologyKey: 'team', matchLabels: { app: 'web' } }), '3');

    // Act
    const plan = planFor({ pods, nodePools: [pool], catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.labels.team).sort()).toEqual(['a', 'a', 'b', 'b']);
  });

  it('counts only the same revision when matchLabelKeys names the template hash', () => {
    // Prepare
    const existing = aManagedNode({ name: 'node-a', zone: 'test-zone-a', cpu: '16' });
    const old = [0, 1].map((i) =>
      aPod({
        name: `old-${i}`,
        cpu: '100m',
        labels: { app: 'web', 'pod-template-hash': 'v1' },
        nodeName: 'node-a',
      }),
    );
    const filler = aPod({ name: 'filler', cpu: '15800m', nodeName: 'node-a' });
    const spread = aSpread({ matchLabels: { app: 'web' }, matchLabelKeys: ['pod-template-hash'] });
    const pods = [0, 1, 2].map((i) =>
      aPod({
        name: `new-${i}`,
        cpu: '100m',
        labels: { app: 'web', 'pod-template-hash': 'v2' },
        topologySpreadConstraints: [spread],
      }),
    );

    // Act
    const plan = planFor({
      pods: [...old, filler, ...pods],
      nodes: [existing.node],
      nodeClaims: [existing.nodeClaim],
      catalog: CATALOG,
    });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 1, 'test-zone-b': 1, 'test-zone-c': 1 });
  });
});
