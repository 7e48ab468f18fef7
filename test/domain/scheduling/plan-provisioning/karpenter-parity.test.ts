/**
 * Cases where an earlier reading of Karpenter's rules was too loose or too strict, pinned so they
 * stay as Karpenter decides them.
 */
import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { aNode, anInstanceType, aPod } from '../../../support/builders.ts';
import { placementOf, planFor } from '../../../support/scheduling-builders.ts';

describe('Karpenter parity', () => {
  it('fills room a claim already pays for, even on a type outside the efficient envelope', () => {
    // Prepare: the big pod forces an overpriced 16-core type; the small one fits beside it
    const catalog = [
      anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
      anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
      anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 1.0 }),
    ];
    const big = aPod({ name: 'big', cpu: '8', memory: '8Gi' });
    const small = aPod({ name: 'small', cpu: '1', memory: '1Gi' });

    // Act
    const plan = planFor({ pods: [big, small], catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toEqual(['default/big', 'default/small']);
  });

  it('keeps counting a terminating pod against its node until it is gone', () => {
    // Prepare: a 4-CPU node whose 3.5-CPU pod is terminating
    const node = aNode({ name: 'node-a', cpu: '4' });
    const leaving = {
      ...aPod({ name: 'leaving', cpu: '3500m', nodeName: 'node-a' }),
      deleting: true,
    };
    const pending = aPod({ name: 'pending', cpu: '1' });

    // Act
    const plan = planFor({ pods: [leaving, pending], nodes: [node] });

    // Assess
    expect(placementOf(plan, pending)).toMatchObject({ kind: 'claim' });
  });

  it('provisions for a pod whose first required term accepts managed nodes', () => {
    // Prepare: [zone In a] OR [nodepool DoesNotExist]; Karpenter reads the first term only
    const pod = aPod({
      name: 'web',
      cpu: '1',
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: Label.zone, operator: 'In', values: ['test-zone-a'] }] },
              { matchExpressions: [{ key: Label.nodePool, operator: 'DoesNotExist' }] },
            ],
          },
        },
      },
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', zone: 'test-zone-a' });
  });

  it('leaves alone a pod whose heaviest preference is to avoid managed nodes', () => {
    // Prepare
    const pod = aPod({
      name: 'legacy',
      cpu: '1',
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              preference: { matchExpressions: [{ key: Label.nodePool, operator: 'DoesNotExist' }] },
            },
          ],
        },
      },
    });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reasons[0]?.code).toBe('Ignored');
  });
});
