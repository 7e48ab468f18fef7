import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import {
  allowsAbsence,
  anyValue,
  formatRequirement,
  fromNodeSelectorRequirement,
  has,
  intersect,
  isEmpty,
  OPERATORS,
  type Operator,
  operatorOf,
  overlaps,
  type Requirement,
  requirement,
} from '../../../functions/domain/requirements/requirement.ts';
import { NORMALIZED_LABEL_KEYS } from '../../support/label-keys.ts';

/** The values every table below probes. */
const PROBES = ['a', 'b', 'c', '0', '3', '4', '5', '6', '10', 'x'] as const;

function allowed(req: Requirement): string[] {
  return PROBES.filter((value) => has(req, value));
}

describe('a requirement built from each operator', () => {
  it.each<[Operator, string[], string[], Operator]>([
    ['In', ['a', 'b'], ['a', 'b'], 'In'],
    ['NotIn', ['a'], ['b', 'c', '0', '3', '4', '5', '6', '10', 'x'], 'NotIn'],
    ['Exists', [], [...PROBES], 'Exists'],
    ['DoesNotExist', [], [], 'DoesNotExist'],
    ['Gt', ['4'], ['5', '6', '10'], 'Gt'],
    ['Lt', ['4'], ['0', '3'], 'Lt'],
    ['Gte', ['4'], ['4', '5', '6', '10'], 'Gt'],
    ['Lte', ['4'], ['0', '3', '4'], 'Lt'],
  ])('%s %j allows exactly %j and reads as %s', (operator, values, expected, readsAs) => {
    // Prepare
    const req = requirement('example.com/key', operator, values);

    // Act
    const result = allowed(req);

    // Assess
    expect(result).toEqual(expected);
    expect(operatorOf(req)).toBe(readsAs);
  });

  it('covers every operator Karpenter accepts', () => {
    // Prepare
    const operators = new Set(OPERATORS);

    // Act
    const missing = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte'].filter(
      (o) => !operators.has(o as Operator),
    );

    // Assess
    expect(missing).toEqual([]);
  });

  it('rejects values that are not integers under a bound', () => {
    // Prepare
    const req = requirement(Label.instanceCpu, 'Gt', ['2']);

    // Act
    const results = ['3', '3.5', 'three', ''].map((v) => has(req, v));

    // Assess
    expect(results).toEqual([true, false, false, false]);
  });

  it.each(NORMALIZED_LABEL_KEYS)('normalizes the key %s to %s', (key, normalized) => {
    // Act
    const req = requirement(key, 'In', ['v']);

    // Assess
    expect(req.key).toBe(normalized);
  });

  it('carries minValues from the Kubernetes shape', () => {
    // Act
    const req = fromNodeSelectorRequirement({
      key: Label.instanceFamily,
      operator: 'In',
      values: ['m5', 'c5', 'r5'],
      minValues: 2,
    });

    // Assess
    expect(req.minValues).toBe(2);
    expect(allowed(req)).toEqual([]);
    expect(has(req, 'c5')).toBe(true);
  });
});

describe('intersecting two requirements', () => {
  it.each<[string, Requirement, Requirement, Operator, string[]]>([
    [
      'In ∩ In keeps the common values',
      requirement('k', 'In', ['a', 'b']),
      requirement('k', 'In', ['b', 'c']),
      'In',
      ['b'],
    ],
    [
      'disjoint In sets leave nothing',
      requirement('k', 'In', ['a']),
      requirement('k', 'In', ['b']),
      'DoesNotExist',
      [],
    ],
    [
      'In ∩ NotIn removes the excluded values',
      requirement('k', 'In', ['a', 'b']),
      requirement('k', 'NotIn', ['a']),
      'In',
      ['b'],
    ],
    [
      'NotIn ∩ NotIn excludes both',
      requirement('k', 'NotIn', ['a']),
      requirement('k', 'NotIn', ['b']),
      'NotIn',
      ['c', '0', '3', '4', '5', '6', '10', 'x'],
    ],
    [
      'Exists ∩ In is the In',
      requirement('k', 'Exists'),
      requirement('k', 'In', ['a']),
      'In',
      ['a'],
    ],
    [
      'Exists ∩ DoesNotExist is DoesNotExist',
      requirement('k', 'Exists'),
      requirement('k', 'DoesNotExist'),
      'DoesNotExist',
      [],
    ],
    [
      'In ∩ Gt keeps only the integers above the bound',
      requirement('k', 'In', ['3', '5', '10', 'x']),
      requirement('k', 'Gt', ['4']),
      'In',
      ['5', '10'],
    ],
    [
      'Gt ∩ Lt keeps the integers between',
      requirement('k', 'Gt', ['3']),
      requirement('k', 'Lt', ['6']),
      'Gt',
      ['4', '5'],
    ],
    [
      'Gte ∩ Lte of the same value keeps that value',
      requirement('k', 'Gte', ['5']),
      requirement('k', 'Lte', ['5']),
      'Gt',
      ['5'],
    ],
    [
      'Gt 3 ∩ Lt 4 leaves no integer',
      requirement('k', 'Gt', ['3']),
      requirement('k', 'Lt', ['4']),
      'DoesNotExist',
      [],
    ],
    [
      'Gte 5 ∩ Lte 4 leaves no integer',
      requirement('k', 'Gte', ['5']),
      requirement('k', 'Lte', ['4']),
      'DoesNotExist',
      [],
    ],
    [
      'NotIn ∩ Gt keeps the exclusion inside the bound',
      requirement('k', 'NotIn', ['5', 'x']),
      requirement('k', 'Gt', ['3']),
      'NotIn',
      ['4', '6', '10'],
    ],
  ])('%s', (_name, a, b, operator, values) => {
    // Act
    const ab = intersect(a, b);
    const ba = intersect(b, a);

    // Assess
    expect(operatorOf(ab)).toBe(operator);
    expect(allowed(ab)).toEqual(values);
    expect(allowed(ba)).toEqual(values);
  });

  it('drops excluded values the bounds already rule out', () => {
    // Act
    const req = intersect(
      requirement('k', 'NotIn', ['x', '1', '9']),
      requirement('k', 'Gt', ['4']),
    );

    // Assess
    expect([...req.values]).toEqual(['9']);
    expect(req.greaterThan).toBe(4);
  });

  it('drops the bounds once the values are listed', () => {
    // Act
    const req = intersect(requirement('k', 'In', ['5', '7']), requirement('k', 'Lt', ['6']));

    // Assess
    expect(req).toEqual({ key: 'k', complement: false, values: new Set(['5']) });
  });

  it('keeps the larger minValues of the two', () => {
    // Act
    const req = intersect(
      requirement(Label.instanceFamily, 'Exists', [], 3),
      requirement(Label.instanceFamily, 'In', ['a', 'b', 'c', 'd'], 2),
    );

    // Assess
    expect(req.minValues).toBe(3);
  });

  it('keeps minValues on an intersection that leaves nothing', () => {
    // Act
    const req = intersect(requirement('k', 'Gt', ['5'], 2), requirement('k', 'Lt', ['3']));

    // Assess
    expect(isEmpty(req)).toBe(true);
    expect(req.minValues).toBe(2);
  });
});

describe('reading a requirement', () => {
  it.each([
    { name: 'NotIn', req: requirement('k', 'NotIn', ['a']), absent: true },
    { name: 'DoesNotExist', req: requirement('k', 'DoesNotExist'), absent: true },
    { name: 'In', req: requirement('k', 'In', ['a']), absent: false },
    { name: 'Exists', req: requirement('k', 'Exists'), absent: false },
    { name: 'Gt', req: requirement('k', 'Gt', ['1']), absent: false },
  ])('lets a node without the label satisfy $name: $absent', ({ req, absent }) => {
    // Act
    const result = allowsAbsence(req);

    // Assess
    expect(result).toBe(absent);
  });

  it.each([
    { name: 'In [c, a, b]', req: requirement('k', 'In', ['c', 'a', 'b']), value: 'a' },
    { name: 'DoesNotExist', req: requirement('k', 'DoesNotExist'), value: undefined },
    { name: 'Exists', req: requirement('k', 'Exists'), value: '0' },
    { name: 'NotIn [0, 1]', req: requirement('k', 'NotIn', ['0', '1']), value: '2' },
    { name: 'Gt 7', req: requirement('k', 'Gt', ['7']), value: '8' },
    { name: 'Gte 7', req: requirement('k', 'Gte', ['7']), value: '7' },
    {
      name: 'Gt 2 and NotIn [3]',
      req: intersect(requirement('k', 'Gt', ['2']), requirement('k', 'NotIn', ['3'])),
      value: '4',
    },
    { name: 'Lt 0', req: requirement('k', 'Lt', ['0']), value: undefined },
  ])('picks a representative value for $name: $value', ({ req, value }) => {
    // Act
    const result = anyValue(req);

    // Assess
    expect(result).toBe(value);
    if (value !== undefined) expect(has(req, value)).toBe(true);
  });

  it.each([
    { req: requirement('k', 'In', ['b', 'a']), text: 'k In [a, b]' },
    { req: requirement('k', 'NotIn', ['a']), text: 'k NotIn [a]' },
    { req: requirement('k', 'Exists'), text: 'k Exists' },
    { req: requirement('k', 'DoesNotExist'), text: 'k DoesNotExist' },
    {
      req: intersect(requirement('k', 'Gt', ['1']), requirement('k', 'Lt', ['9'])),
      text: 'k > 1 and < 9',
    },
  ])('formats a requirement for people as $text', ({ req, text }) => {
    // Act
    const result = formatRequirement(req);

    // Assess
    expect(result).toBe(text);
  });
});

const VALUES = ['a', 'b', '1', '2', '3', '5', '8'];

const anyRequirement: fc.Arbitrary<Requirement> = fc
  .tuple(
    fc.constantFrom(...OPERATORS),
    fc.subarray(VALUES, { minLength: 1 }),
    fc.integer({ min: 0, max: 9 }),
  )
  .map(([operator, values, bound]) =>
    ['Gt', 'Lt', 'Gte', 'Lte'].includes(operator)
      ? requirement('k', operator, [String(bound)])
      : requirement('k', operator, values),
  );

/** Two or three requirements intersected, so bounds and values mix. */
const aCombinedRequirement = fc
  .array(anyRequirement, { minLength: 1, maxLength: 3 })
  .map((reqs) => reqs.reduce((acc, r) => intersect(acc, r)));

const PROBE_VALUES = [...VALUES, 'c', '0', '4', '6', '7', '9', '10'];

describe('the requirement algebra', () => {
  it('intersects to exactly the values both sides allow', () => {
    fc.assert(
      fc.property(aCombinedRequirement, aCombinedRequirement, (a, b) => {
        // Act
        const both = intersect(a, b);

        // Assess
        for (const value of PROBE_VALUES) {
          expect(has(both, value)).toBe(has(a, value) && has(b, value));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers overlaps exactly when the intersection is not empty', () => {
    fc.assert(
      fc.property(aCombinedRequirement, aCombinedRequirement, (a, b) => {
        // Act
        const answer = overlaps(a, b);

        // Assess
        expect(answer).toBe(!isEmpty(intersect(a, b)));
        expect(overlaps(b, a)).toBe(answer);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the listed values when both sides list values', () => {
    fc.assert(
      fc.property(aCombinedRequirement, aCombinedRequirement, (a, b) => {
        // Prepare
        const bothListed = !a.complement && !b.complement;

        // Act
        const answer = overlaps(a, b);

        // Assess
        if (bothListed) {
          expect(answer).toBe(PROBE_VALUES.some((v) => has(a, v) && has(b, v)));
        }
      }),
      { numRuns: 200 },
    );
  });
});
