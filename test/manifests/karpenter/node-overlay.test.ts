/**
 * NodeOverlay validation, with the cases of Karpenter's CRD and webhook tests
 * (kubernetes-sigs/karpenter pkg/apis/v1alpha1/nodeoverlay_validation_test.go).
 */
import { describe, expect, it } from 'vitest';
import { parseNodeOverlay } from '../../../functions/manifests/karpenter/node-overlay.ts';
import { catchManifestError } from './catch-manifest-error.ts';

function anOverlay(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: { name: 'overlay' },
    spec: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] },
      ],
      ...spec,
    },
  };
}

const requirement = (key: string, operator: string, values?: string[]) =>
  anOverlay({ requirements: [{ key, operator, ...(values === undefined ? {} : { values }) }] });

describe('parseNodeOverlay', () => {
  it('reads the blueprint GPU time-slicing overlay', () => {
    // Prepare
    const doc = anOverlay({
      weight: 10,
      requirements: [
        { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'In', values: ['1'] },
        { key: 'karpenter.k8s.aws/instance-gpu-manufacturer', operator: 'In', values: ['nvidia'] },
      ],
      capacity: { 'nvidia.com/gpu': 4 },
    });

    // Act
    const overlay = parseNodeOverlay(doc);

    // Assess
    expect(overlay.spec.weight).toBe(10);
    expect(overlay.spec.capacity).toEqual({ 'nvidia.com/gpu': 4 });
  });

  it.each([
    ['karpenter.sh/nodepool', 'In', ['team-alpha']],
    ['node.kubernetes.io/instance-type', 'NotIn', ['m5.large']],
    ['kubernetes.io/arch', 'Exists', undefined],
    ['karpenter.k8s.aws/instance-generation', 'Gte', ['6']],
    ['team', 'In', ['alpha']],
  ])('allows %s %s', (key, operator, values) => {
    // Act
    const overlay = parseNodeOverlay(requirement(key, operator, values));

    // Assess
    expect(overlay.spec.requirements[0]?.key).toBe(key);
  });

  it.each([
    ['In without values', requirement('team', 'In'), 'spec.requirements[0].values'],
    ['NotIn without values', requirement('team', 'NotIn'), 'spec.requirements[0].values'],
    [
      'Gt with a word',
      requirement('karpenter.k8s.aws/instance-cpu', 'Gt', ['many']),
      'spec.requirements[0].values',
    ],
    [
      'an unsupported operator',
      requirement('team', 'Matches', ['a']),
      'spec.requirements[0].operator',
    ],
    [
      'a restricted domain',
      requirement('karpenter.sh/custom', 'In', ['a']),
      'spec.requirements[0].key',
    ],
    [
      'minValues, which overlays do not have',
      anOverlay({ requirements: [{ key: 'team', operator: 'In', values: ['a'], minValues: 1 }] }),
      'spec.requirements[0]',
    ],
    [
      'both price and priceAdjustment',
      anOverlay({ price: '0.432', priceAdjustment: '+10%' }),
      'spec.priceAdjustment',
    ],
    ['cpu capacity', anOverlay({ capacity: { cpu: '1' } }), 'spec.capacity.cpu'],
    ['memory capacity', anOverlay({ capacity: { memory: '1Gi' } }), 'spec.capacity.memory'],
    ['pods capacity', anOverlay({ capacity: { pods: '10' } }), 'spec.capacity.pods'],
    [
      'ephemeral-storage capacity',
      anOverlay({ capacity: { 'ephemeral-storage': '1Gi' } }),
      'spec.capacity[ephemeral-storage]',
    ],
    ['weight 0', anOverlay({ weight: 0 }), 'spec.weight'],
    ['weight 10001', anOverlay({ weight: 10001 }), 'spec.weight'],
  ])('refuses %s', (_, doc, path) => {
    // Act
    const error = catchManifestError(() => parseNodeOverlay(doc));

    // Assess
    expect(error.message).toContain(path);
  });

  it.each([
    '+42',
    '.5',
    '42.',
    '42%',
    '3,14',
    '1e10',
    '0x42',
    'forty-two',
    '42a',
    '42 ',
    ' 42',
    '42.0.0',
    '-',
    '.',
    '-.42',
  ])('refuses the price %j', (price) => {
    // Act
    const error = catchManifestError(() => parseNodeOverlay(anOverlay({ price })));

    // Assess
    expect(error.message).toContain('spec.price');
  });

  it.each(['43', '34.43'])('allows the price %j', (price) => {
    // Act
    const overlay = parseNodeOverlay(anOverlay({ price }));

    // Assess
    expect(overlay.spec.price).toBe(price);
  });

  it.each(['1%', '1', '1.3', '-100.0%', '-101%', '+', '42'])(
    'refuses the price adjustment %j',
    (priceAdjustment) => {
      // Act
      const error = catchManifestError(() => parseNodeOverlay(anOverlay({ priceAdjustment })));

      // Assess
      expect(error.message).toContain('spec.priceAdjustment');
    },
  );

  it.each(['+1%', '-1%', '-100%', '+100.102%', '+298%', '+43', '-43', '+34.43', '-34.43'])(
    'allows the price adjustment %j',
    (priceAdjustment) => {
      // Act
      const overlay = parseNodeOverlay(anOverlay({ priceAdjustment }));

      // Assess
      expect(overlay.spec.priceAdjustment).toBe(priceAdjustment);
    },
  );
});
