import { describe, expect, it } from 'vitest';
import type { Taint } from '../../../../functions/domain/taints.ts';
import { aNode, aNodePool, aPod } from '../../../support/builders.ts';
import { placementOf, planFor } from '../../../support/scheduling-builders.ts';

const GPU_TAINT: Taint = { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' };

describe('NodePool taints', () => {
  it('keeps pods that do not tolerate a pool taint off that pool', () => {
    // Prepare
    const pool = aNodePool({ name: 'gpu', taints: [GPU_TAINT] });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/web',
        reason: 'nodepool "gpu": did not tolerate nvidia.com/gpu=true:NoSchedule',
        reasons: [
          {
            nodePool: 'gpu',
            code: 'Taints',
            message: 'did not tolerate nvidia.com/gpu=true:NoSchedule',
          },
        ],
      },
    ]);
  });

  it.each([
    ['Exists on the key', { key: 'nvidia.com/gpu', operator: 'Exists' as const }],
    ['Equal with the value', { key: 'nvidia.com/gpu', operator: 'Equal' as const, value: 'true' }],
    ['Exists on every key', { operator: 'Exists' as const }],
  ])('places a pod that tolerates the pool taint with %s', (_name, toleration) => {
    // Prepare
    const pool = aNodePool({ name: 'gpu', taints: [GPU_TAINT] });
    const pod = aPod({ name: 'train', cpu: '1', tolerations: [toleration] });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', nodePool: 'gpu' });
    expect(plan.nodeClaims[0]?.taints).toEqual([GPU_TAINT]);
  });

  it('sends pods that do not tolerate a heavier tainted pool to the next one', () => {
    // Prepare
    const pools = [
      aNodePool({ name: 'gpu', weight: 100, taints: [GPU_TAINT] }),
      aNodePool({ name: 'general' }),
    ];
    const web = aPod({ name: 'web', cpu: '1' });
    const train = aPod({
      name: 'train',
      cpu: '1',
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
    });

    // Act
    const plan = planFor({ pods: [web, train], nodePools: pools });

    // Assess
    expect(placementOf(plan, web)).toMatchObject({ nodePool: 'general' });
    expect(placementOf(plan, train)).toMatchObject({ nodePool: 'gpu' });
  });

  it('does not let startup taints block a new node', () => {
    // Prepare
    const pool = aNodePool({
      startupTaints: [{ key: 'example.com/agent-not-ready', effect: 'NoSchedule' }],
    });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim' });
    expect(plan.nodeClaims[0]?.startupTaints).toEqual([
      { key: 'example.com/agent-not-ready', effect: 'NoSchedule' },
    ]);
    expect(plan.nodeClaims[0]?.taints).toEqual([]);
  });

  it('prefers a pool without a PreferNoSchedule taint over a heavier pool with one', () => {
    // Prepare
    const pools = [
      aNodePool({
        name: 'soft',
        weight: 100,
        taints: [{ key: 'soft', effect: 'PreferNoSchedule' }],
      }),
      aNodePool({ name: 'plain' }),
    ];
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ nodePool: 'plain' });
  });

  it('uses a PreferNoSchedule pool once there is nothing else', () => {
    // Prepare
    const pool = aNodePool({ name: 'soft', taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ nodePool: 'soft' });
  });

  it('keeps pods off an existing node whose taints they do not tolerate', () => {
    // Prepare
    const node = aNode({
      name: 'dedicated',
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }],
    });
    const web = aPod({ name: 'web', cpu: '1' });
    const db = aPod({
      name: 'db',
      cpu: '1',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db' }],
    });

    // Act
    const plan = planFor({ pods: [web, db], nodes: [node] });

    // Assess
    expect(placementOf(plan, web)).toMatchObject({ kind: 'claim' });
    expect(placementOf(plan, db)).toEqual({ kind: 'node', node: 'dedicated' });
  });
});
