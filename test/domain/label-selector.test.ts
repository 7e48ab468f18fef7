import { describe, expect, it } from 'vitest';
import {
  type LabelSelector,
  selectorKey,
  selectorMatches,
} from '../../functions/domain/label-selector.ts';

const WEB = { app: 'web', tier: 'front' };

describe('a label selector against labels', () => {
  it.each<[string, LabelSelector | undefined, boolean]>([
    ['an absent selector matches nothing', undefined, false],
    ['an empty selector matches everything', {}, true],
    ['matchLabels with the same values', { matchLabels: { app: 'web' } }, true],
    ['matchLabels with another value', { matchLabels: { app: 'db' } }, false],
    ['matchLabels with a missing key', { matchLabels: { team: 'a' } }, false],
    [
      'In with the value',
      { matchExpressions: [{ key: 'app', operator: 'In', values: ['db', 'web'] }] },
      true,
    ],
    [
      'In without the value',
      { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
      false,
    ],
    [
      'In on a missing key',
      { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
      false,
    ],
    [
      'NotIn with the value',
      { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] },
      false,
    ],
    [
      'NotIn on a missing key',
      { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] },
      true,
    ],
    ['Exists on a present key', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    ['Exists on a missing key', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, false],
    [
      'DoesNotExist on a missing key',
      { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] },
      true,
    ],
    [
      'DoesNotExist on a present key',
      { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] },
      false,
    ],
    [
      'matchLabels and expressions together (AND)',
      {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }],
      },
      false,
    ],
  ])('%s', (_name, selector, matches) => {
    // Act
    const result = selectorMatches(selector, WEB);

    // Assess
    expect(result).toBe(matches);
  });
});

describe('the text form of a selector', () => {
  it('is the same whatever the order of labels, expressions and values', () => {
    // Prepare
    const a: LabelSelector = {
      matchLabels: { b: '2', a: '1' },
      matchExpressions: [
        { key: 'x', operator: 'In', values: ['2', '1'] },
        { key: 'w', operator: 'Exists' },
      ],
    };
    const b: LabelSelector = {
      matchLabels: { a: '1', b: '2' },
      matchExpressions: [
        { key: 'w', operator: 'Exists' },
        { key: 'x', operator: 'In', values: ['1', '2'] },
      ],
    };

    // Act
    const keys = [selectorKey(a), selectorKey(b)];

    // Assess
    expect(keys[0]).toBe(keys[1]);
  });

  it('tells an absent selector from an empty one', () => {
    // Act
    const keys = [selectorKey(undefined), selectorKey({})];

    // Assess
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('tells different selectors apart', () => {
    // Act
    const keys = [
      selectorKey({ matchLabels: { app: 'a' } }),
      selectorKey({ matchLabels: { app: 'b' } }),
    ];

    // Assess
    expect(keys[0]).not.toBe(keys[1]);
  });
});
