import { describe, expect, it } from 'vitest';
import {
  firstUntolerated,
  formatTaint,
  isKnownEphemeralTaint,
  sameTaint,
  type Taint,
  type Toleration,
  tolerates,
  toleratesTaint,
} from '../../functions/domain/taints.ts';

const GPU: Taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };

describe('a toleration against a taint', () => {
  it.each<[string, Toleration, Taint, boolean]>([
    ['Exists on the key', { key: 'gpu', operator: 'Exists' }, GPU, true],
    ['Exists on another key', { key: 'other', operator: 'Exists' }, GPU, false],
    ['an empty key with Exists tolerates everything', { operator: 'Exists' }, GPU, true],
    [
      'an empty key with Exists and an effect tolerates that effect only',
      { operator: 'Exists', effect: 'NoExecute' },
      GPU,
      false,
    ],
    ['Equal with the same value', { key: 'gpu', operator: 'Equal', value: 'true' }, GPU, true],
    ['Equal with another value', { key: 'gpu', operator: 'Equal', value: 'false' }, GPU, false],
    ['no operator means Equal', { key: 'gpu', value: 'true' }, GPU, true],
    [
      'Equal with no value against a taint without value',
      { key: 'dedicated', operator: 'Equal' },
      { key: 'dedicated', effect: 'NoSchedule' },
      true,
    ],
    [
      'Equal with no value against a taint with a value',
      { key: 'gpu', operator: 'Equal' },
      GPU,
      false,
    ],
    [
      'an empty effect matches every effect',
      { key: 'gpu', operator: 'Exists' },
      { ...GPU, effect: 'NoExecute' },
      true,
    ],
    ['a matching effect', { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, GPU, true],
    ['another effect', { key: 'gpu', operator: 'Exists', effect: 'PreferNoSchedule' }, GPU, false],
  ])('%s: %s', (_name, toleration, taint, expected) => {
    // Act
    const result = toleratesTaint(toleration, taint);

    // Assess
    expect(result).toBe(expected);
  });

  it('tolerates when any toleration of a list matches', () => {
    // Act
    const result = tolerates(
      [
        { key: 'other', operator: 'Exists' },
        { key: 'gpu', value: 'true' },
      ],
      GPU,
    );

    // Assess
    expect(result).toBe(true);
  });
});

describe('the first taint a pod does not tolerate', () => {
  it('is undefined when every taint is tolerated', () => {
    // Act
    const taint = firstUntolerated(
      [{ operator: 'Exists' }],
      [GPU, { key: 'x', effect: 'NoExecute' }],
    );

    // Assess
    expect(taint).toBeUndefined();
  });

  it('is the first taint in order that nothing tolerates', () => {
    // Prepare
    const taints: Taint[] = [
      GPU,
      { key: 'spot', effect: 'NoSchedule' },
      { key: 'x', effect: 'NoExecute' },
    ];

    // Act
    const taint = firstUntolerated([{ key: 'gpu', operator: 'Exists' }], taints);

    // Assess
    expect(taint).toEqual({ key: 'spot', effect: 'NoSchedule' });
  });

  it('counts a PreferNoSchedule taint, as Karpenter does until the pod is relaxed', () => {
    // Prepare
    const soft: Taint = { key: 'soft', effect: 'PreferNoSchedule' };

    // Act
    const strict = firstUntolerated([], [soft]);
    const relaxed = firstUntolerated([{ operator: 'Exists', effect: 'PreferNoSchedule' }], [soft]);

    // Assess
    expect(strict).toEqual(soft);
    expect(relaxed).toBeUndefined();
  });

  it('finds nothing among no taints', () => {
    // Act
    const taint = firstUntolerated([], []);

    // Assess
    expect(taint).toBeUndefined();
  });
});

describe('taints for people and comparisons', () => {
  it.each<[Taint, string]>([
    [GPU, 'gpu=true:NoSchedule'],
    [{ key: 'spot', effect: 'NoExecute' }, 'spot:NoExecute'],
  ])('formats %j as %s', (taint, text) => {
    // Act
    const result = formatTaint(taint);

    // Assess
    expect(result).toBe(text);
  });

  it.each<[Taint, Taint, boolean]>([
    [GPU, { ...GPU }, true],
    [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', value: '', effect: 'NoSchedule' }, true],
    [GPU, { ...GPU, effect: 'NoExecute' }, false],
    [GPU, { ...GPU, value: 'false' }, false],
  ])('compares %j and %j as the same: %s', (a, b, same) => {
    // Act
    const result = sameTaint(a, b);

    // Assess
    expect(result).toBe(same);
  });
});

describe('known ephemeral taints', () => {
  it.each([
    [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }, true],
    [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, true],
    [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, true],
    [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }, false],
    [
      {
        key: 'node.cloudprovider.kubernetes.io/uninitialized',
        value: 'true',
        effect: 'NoSchedule',
      },
      true,
    ],
    [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }, true],
    [{ key: 'karpenter.sh/unregistered', effect: 'NoSchedule' }, false],
    [{ key: 'readiness.k8s.io/network-ready', value: 'pending', effect: 'NoSchedule' }, true],
    [{ key: 'readiness.k8s.io/storage', effect: 'NoExecute' }, true],
    [{ key: 'example.com/readiness.k8s.io/x', effect: 'NoSchedule' }, false],
    [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }, false],
  ] satisfies [Taint, boolean][])('%o is ephemeral: %s', (taint, expected) => {
    expect(isKnownEphemeralTaint(taint)).toBe(expected);
  });

  it('matches by key and effect, whatever the value', () => {
    const notReady: Taint = {
      key: 'node.kubernetes.io/not-ready',
      value: 'x',
      effect: 'NoExecute',
    };
    expect(isKnownEphemeralTaint(notReady)).toBe(true);
  });
});
