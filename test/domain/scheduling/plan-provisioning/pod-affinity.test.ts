import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { aNode, anInstanceType, aPod } from '../../../support/builders.ts';
import {
  aManagedNode,
  anAffinityTerm,
  appPods,
  placementOf,
  planFor,
  podAffinity,
  podAntiAffinity,
  podsPerZone,
} from '../../../support/scheduling-builders.ts';

const CATALOG = [anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 })];

describe('pod affinity', () => {
  it('bootstraps a self-affine group into one zone', () => {
    // Prepare
    const pods = appPods('cache', 3, {
      cpu: '3',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'cache' })),
    });

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(Object.values(podsPerZone(plan))).toEqual([3]);
    expect(plan.nodeClaims).toHaveLength(3);
  });

  it('cannot place a pod whose affinity selects pods that exist nowhere', () => {
    // Prepare
    const pod = aPod({
      name: 'lonely',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'missing' })),
    });

    // Act
    const plan = planFor({ pods: [pod], catalog: CATALOG });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'unschedulable' });
    expect(plan.unschedulable[0]?.reasons[0]).toMatchObject({ code: 'Topology' });
  });

  it('follows an existing pod into its zone', () => {
    // Prepare
    const node = aManagedNode({ name: 'node-b', zone: 'test-zone-b' });
    const db = aPod({ name: 'db', cpu: '4', labels: { app: 'db' }, nodeName: 'node-b' });
    const pod = aPod({
      name: 'api',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'db' })),
    });

    // Act
    const plan = planFor({
      pods: [db, pod],
      nodes: [node.node],
      nodeClaims: [node.nodeClaim],
      catalog: CATALOG,
    });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', zone: 'test-zone-b' });
  });

  it('follows an existing pod onto its node with hostname affinity', () => {
    // Prepare
    const node = aNode({ name: 'node-x', cpu: '4' });
    const db = aPod({ name: 'db', cpu: '1', labels: { app: 'db' }, nodeName: 'node-x' });
    const pod = aPod({
      name: 'sidekick',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.hostname, { app: 'db' })),
    });

    // Act
    const plan = planFor({ pods: [db, pod], nodes: [node], catalog: CATALOG });

    // Assess
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'node-x' });
  });

  it('follows a pending pod placed earlier in the same pass', () => {
    // Prepare
    const db = aPod({
      name: 'db',
      cpu: '3',
      labels: { app: 'db' },
      nodeSelector: { [Label.zone]: 'test-zone-c' },
    });
    const api = aPod({
      name: 'api',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'db' })),
    });

    // Act
    const plan = planFor({ pods: [api, db], catalog: CATALOG });

    // Assess
    expect(placementOf(plan, api)).toMatchObject({ zone: 'test-zone-c' });
  });

  it('only counts pods in the namespaces the term names', () => {
    // Prepare
    const node = aManagedNode({ name: 'node-b', zone: 'test-zone-b' });
    const db = aPod({
      name: 'db',
      namespace: 'data',
      cpu: '4',
      labels: { app: 'db' },
      nodeName: 'node-b',
    });
    const sameNamespace = aPod({
      name: 'api',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'db' })),
    });
    const named = aPod({
      name: 'api-data',
      cpu: '1',
      affinity: podAffinity(anAffinityTerm(Label.zone, { app: 'db' }, { namespaces: ['data'] })),
    });

    // Act
    const plan = planFor({
      pods: [db, sameNamespace, named],
      nodes: [node.node],
      nodeClaims: [node.nodeClaim],
      catalog: CATALOG,
    });

    // Assess
    expect(placementOf(plan, sameNamespace)).toMatchObject({ kind: 'unschedulable' });
    expect(placementOf(plan, named)).toMatchObject({ kind: 'claim', zone: 'test-zone-b' });
  });
});

describe('pod anti-affinity', () => {
  it('puts pods that repel each other on separate nodes', () => {
    // Prepare
    const pods = appPods('web', 3, {
      cpu: '100m',
      affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'web' })),
    });

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1]);
  });

  it('places one pod per pass when zonal anti-affinity leaves its zone undecided', () => {
    // Prepare
    const pods = appPods('zk', 3, {
      cpu: '100m',
      affinity: podAntiAffinity(anAffinityTerm(Label.zone, { app: 'zk' })),
    });

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods)).toEqual([['default/zk-0']]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/zk-1', 'default/zk-2']);
  });

  it('uses each zone at most once with zonal anti-affinity once zones are pinned', () => {
    // Prepare
    const pods = ['test-zone-a', 'test-zone-b', 'test-zone-c', 'test-zone-a'].map((zone, i) =>
      aPod({
        name: `zk-${i}`,
        cpu: '100m',
        labels: { app: 'zk' },
        nodeSelector: { [Label.zone]: zone },
        affinity: podAntiAffinity(anAffinityTerm(Label.zone, { app: 'zk' })),
      }),
    );

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-a': 1, 'test-zone-b': 1, 'test-zone-c': 1 });
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/zk-3']);
  });

  it('keeps a pod out of every zone an undecided anti-affine pod might take', () => {
    // Prepare
    const anywhere = aPod({
      name: 'anywhere',
      cpu: '2',
      affinity: podAntiAffinity(anAffinityTerm(Label.zone, { security: 's2' })),
    });
    const sensitive = aPod({ name: 'sensitive', cpu: '1', labels: { security: 's2' } });

    // Act
    const plan = planFor({ pods: [anywhere, sensitive], catalog: CATALOG });

    // Assess
    expect(placementOf(plan, anywhere)).toMatchObject({ kind: 'claim' });
    expect(placementOf(plan, sensitive)).toMatchObject({ kind: 'unschedulable' });
  });

  it('keeps a new pod away from an existing pod whose anti-affinity repels it', () => {
    // Prepare
    const node = aManagedNode({ name: 'node-a', zone: 'test-zone-a', cpu: '16' });
    const loner = aPod({
      name: 'loner',
      cpu: '1',
      nodeName: 'node-a',
      affinity: podAntiAffinity(anAffinityTerm(Label.zone, { app: 'web' })),
    });
    const web = aPod({ name: 'web', cpu: '1', labels: { app: 'web' } });

    // Act
    const plan = planFor({
      pods: [loner, web],
      nodes: [node.node],
      nodeClaims: [node.nodeClaim],
      catalog: CATALOG,
    });

    // Assess
    expect(placementOf(plan, web)).toMatchObject({ kind: 'claim' });
    expect(placementOf(plan, web)).not.toMatchObject({ zone: 'test-zone-a' });
  });

  it('keeps a pod away from a pending pod placed earlier whose anti-affinity repels it', () => {
    // Prepare
    const loner = aPod({
      name: 'loner',
      cpu: '3',
      nodeSelector: { [Label.zone]: 'test-zone-a' },
      affinity: podAntiAffinity(anAffinityTerm(Label.zone, { app: 'web' })),
    });
    const web = aPod({
      name: 'web',
      cpu: '1',
      labels: { app: 'web' },
      nodeSelector: { [Label.zone]: 'test-zone-a' },
    });

    // Act
    const plan = planFor({ pods: [loner, web], catalog: CATALOG });

    // Assess
    expect(placementOf(plan, loner)).toMatchObject({ kind: 'claim', zone: 'test-zone-a' });
    expect(placementOf(plan, web)).toMatchObject({ kind: 'unschedulable' });
  });

  it('lets preferred anti-affinity give way when it cannot be met', () => {
    // Prepare
    const pods = appPods('web', 4, {
      cpu: '100m',
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, podAffinityTerm: anAffinityTerm(Label.zone, { app: 'web' }) },
          ],
        },
      },
    });

    // Act
    const plan = planFor({ pods, catalog: CATALOG });

    // Assess
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.flatMap((c) => c.pods)).toHaveLength(4);
  });
});
