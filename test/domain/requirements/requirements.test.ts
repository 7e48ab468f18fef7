import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import {
  type NodeSelectorRequirement,
  OPERATORS,
  type Operator,
  requirement,
} from '../../../functions/domain/requirements/requirement.ts';
import {
  add,
  compatibilityReason,
  customLabels,
  fromLabels,
  fromNodeSelector,
  get,
  intersectsReason,
  isCompatible,
  keyConflict,
  labelsSatisfy,
  NO_REQUIREMENTS,
  type Requirements,
  requirementsOf,
  toNodeSelector,
} from '../../../functions/domain/requirements/requirements.ts';

function reqs(...list: NodeSelectorRequirement[]): Requirements {
  return fromNodeSelector(list);
}

describe('building a set of requirements', () => {
  it('intersects requirements on the same key', () => {
    // Act
    const set = requirementsOf([
      requirement(Label.zone, 'In', ['a', 'b']),
      requirement(Label.zone, 'NotIn', ['a']),
    ]);

    // Assess
    expect([...(set.get(Label.zone)?.values ?? [])]).toEqual(['b']);
    expect(set.size).toBe(1);
  });

  it('reads labels as one In requirement each', () => {
    // Act
    const set = fromLabels({ team: 'a', 'beta.kubernetes.io/arch': 'arm64' });

    // Assess
    expect(toNodeSelector(set)).toEqual([
      { key: Label.arch, operator: 'In', values: ['arm64'] },
      { key: 'team', operator: 'In', values: ['a'] },
    ]);
  });

  it('adds nothing and returns the same set when the other side is empty', () => {
    // Prepare
    const set = reqs({ key: 'team', operator: 'In', values: ['a'] });

    // Act
    const result = add(set, NO_REQUIREMENTS);

    // Assess
    expect(result).toBe(set);
    expect(add(NO_REQUIREMENTS, set)).toBe(set);
  });

  it('adds by intersecting shared keys and keeping the others', () => {
    // Act
    const result = add(
      reqs({ key: 'team', operator: 'In', values: ['a', 'b'] }),
      reqs(
        { key: 'team', operator: 'In', values: ['b', 'c'] },
        { key: 'tier', operator: 'Exists' },
      ),
    );

    // Assess
    expect(toNodeSelector(result)).toEqual([
      { key: 'team', operator: 'In', values: ['b'] },
      { key: 'tier', operator: 'Exists', values: [] },
    ]);
  });

  it('reads a key the set does not constrain as Exists', () => {
    // Act
    const req = get(NO_REQUIREMENTS, 'team');

    // Assess
    expect(req).toEqual(requirement('team', 'Exists'));
  });
});

describe('whether two sets of requirements intersect', () => {
  it.each<[string, NodeSelectorRequirement, NodeSelectorRequirement, boolean]>([
    [
      'shared values',
      { key: 'k', operator: 'In', values: ['a', 'b'] },
      { key: 'k', operator: 'In', values: ['b'] },
      true,
    ],
    [
      'no shared value',
      { key: 'k', operator: 'In', values: ['a'] },
      { key: 'k', operator: 'In', values: ['b'] },
      false,
    ],
    [
      'a value excluded by the other side',
      { key: 'k', operator: 'In', values: ['a'] },
      { key: 'k', operator: 'NotIn', values: ['a'] },
      false,
    ],
    [
      'two absences',
      { key: 'k', operator: 'DoesNotExist' },
      { key: 'k', operator: 'NotIn', values: ['a'] },
      true,
    ],
    [
      'absence against a value',
      { key: 'k', operator: 'DoesNotExist' },
      { key: 'k', operator: 'In', values: ['a'] },
      false,
    ],
    [
      'absence against Exists',
      { key: 'k', operator: 'Exists' },
      { key: 'k', operator: 'DoesNotExist' },
      false,
    ],
    [
      'bounds that meet',
      { key: 'k', operator: 'Gte', values: ['4'] },
      { key: 'k', operator: 'Lte', values: ['4'] },
      true,
    ],
    [
      'bounds that leave no integer',
      { key: 'k', operator: 'Gte', values: ['5'] },
      { key: 'k', operator: 'Lte', values: ['4'] },
      false,
    ],
  ])('agrees on %s: %s', (_name, existing, incoming, agrees) => {
    // Act
    const reason = intersectsReason(reqs(existing), reqs(incoming));

    // Assess
    expect(reason === undefined).toBe(agrees);
    if (!agrees) expect(reason).toContain('key k');
  });

  it('ignores keys only one side constrains', () => {
    // Act
    const reason = intersectsReason(
      reqs({ key: 'a', operator: 'In', values: ['1'] }),
      reqs({ key: 'b', operator: 'In', values: ['2'] }),
    );

    // Assess
    expect(reason).toBeUndefined();
  });

  it('names both sides of a key conflict', () => {
    // Act
    const reason = keyConflict(
      reqs({ key: Label.zone, operator: 'In', values: ['a'] }),
      reqs({ key: Label.zone, operator: 'In', values: ['b'] }),
      Label.zone,
    );

    // Assess
    expect(reason).toBe(
      `incompatible requirements, key ${Label.zone}, ${Label.zone} In [b] not in ${Label.zone} In [a]`,
    );
  });
});

describe('whether a pod is compatible with a node side', () => {
  it.each<[string, Requirements, Requirements, boolean, string | undefined]>([
    [
      'a custom label the node side does not define',
      NO_REQUIREMENTS,
      reqs({ key: 'team', operator: 'In', values: ['a'] }),
      true,
      'label "team" does not have known values',
    ],
    [
      'a custom label the pod requires to be absent',
      NO_REQUIREMENTS,
      reqs({ key: 'team', operator: 'DoesNotExist' }),
      true,
      undefined,
    ],
    [
      'a custom label the pod excludes values of',
      NO_REQUIREMENTS,
      reqs({ key: 'team', operator: 'NotIn', values: ['a'] }),
      true,
      undefined,
    ],
    [
      'a custom label the pod requires to exist',
      NO_REQUIREMENTS,
      reqs({ key: 'team', operator: 'Exists' }),
      true,
      'label "team" does not have known values',
    ],
    [
      'an undefined well-known label when allowed',
      NO_REQUIREMENTS,
      reqs({ key: Label.arch, operator: 'In', values: ['arm64'] }),
      true,
      undefined,
    ],
    [
      'an undefined well-known label when not allowed',
      NO_REQUIREMENTS,
      reqs({ key: Label.arch, operator: 'In', values: ['arm64'] }),
      false,
      `label "${Label.arch}" does not have known values`,
    ],
    [
      'a defined well-known label with another value',
      reqs({ key: Label.arch, operator: 'In', values: ['amd64'] }),
      reqs({ key: Label.arch, operator: 'In', values: ['arm64'] }),
      true,
      `incompatible requirements, key ${Label.arch}, ${Label.arch} In [arm64] not in ${Label.arch} In [amd64]`,
    ],
    [
      'a custom label the node side allows with Exists',
      reqs({ key: 'team', operator: 'Exists' }),
      reqs({ key: 'team', operator: 'In', values: ['a'] }),
      true,
      undefined,
    ],
  ])('judges %s (allow undefined well-known: %s)', (_name, existing, incoming, allow, reason) => {
    // Act
    const result = compatibilityReason(existing, incoming, allow);

    // Assess
    expect(result).toBe(reason);
    expect(isCompatible(existing, incoming, allow)).toBe(reason === undefined);
  });

  it('is lenient about undefined well-known labels by default', () => {
    // Act
    const result = isCompatible(
      NO_REQUIREMENTS,
      reqs({ key: Label.zone, operator: 'In', values: ['a'] }),
    );

    // Assess
    expect(result).toBe(true);
  });

  it('understands a pod that uses a beta label', () => {
    // Act
    const reason = compatibilityReason(
      reqs({ key: Label.zone, operator: 'In', values: ['us-east-1a'] }),
      fromLabels({ 'failure-domain.beta.kubernetes.io/zone': 'us-east-1b' }),
    );

    // Assess
    expect(reason).toContain(`key ${Label.zone}`);
  });
});

describe('whether concrete labels satisfy requirements', () => {
  it.each<[string, Record<string, string>, NodeSelectorRequirement, boolean]>([
    ['an allowed value', { team: 'a' }, { key: 'team', operator: 'In', values: ['a'] }, true],
    ['another value', { team: 'b' }, { key: 'team', operator: 'In', values: ['a'] }, false],
    ['a missing label against In', {}, { key: 'team', operator: 'In', values: ['a'] }, false],
    ['a missing label against NotIn', {}, { key: 'team', operator: 'NotIn', values: ['a'] }, true],
    ['a missing label against DoesNotExist', {}, { key: 'team', operator: 'DoesNotExist' }, true],
    ['a missing label against Exists', {}, { key: 'team', operator: 'Exists' }, false],
    [
      'a present label against DoesNotExist',
      { team: 'a' },
      { key: 'team', operator: 'DoesNotExist' },
      false,
    ],
    ['a number above Gt', { cpu: '8' }, { key: 'cpu', operator: 'Gt', values: ['4'] }, true],
  ])('judges %s: %s', (_name, labels, req, satisfied) => {
    // Act
    const result = labelsSatisfy(labels, reqs(req));

    // Assess
    expect(result).toBe(satisfied);
  });
});

describe('the custom labels a node carries', () => {
  it('takes single values of custom keys and skips restricted ones', () => {
    // Prepare
    const set = reqs(
      { key: 'team', operator: 'In', values: ['a'] },
      { key: Label.zone, operator: 'In', values: ['us-east-1a'] },
      { key: Label.hostname, operator: 'In', values: ['h'] },
      { key: 'example.karpenter.sh/x', operator: 'In', values: ['y'] },
      { key: 'node.kubernetes.io/role', operator: 'In', values: ['web'] },
    );

    // Act
    const labels = customLabels(set);

    // Assess
    expect(labels).toEqual({ team: 'a', 'node.kubernetes.io/role': 'web' });
  });

  it('picks the smallest value of several', () => {
    // Act
    const labels = customLabels(reqs({ key: 'team', operator: 'In', values: ['c', 'b'] }));

    // Assess
    expect(labels).toEqual({ team: 'b' });
  });

  it('generates a value for an open-ended custom key, as Karpenter does', () => {
    // Act
    const labels = customLabels(
      reqs(
        { key: 'team', operator: 'Exists' },
        { key: 'tier', operator: 'NotIn', values: ['0'] },
        { key: 'gone', operator: 'DoesNotExist' },
      ),
    );

    // Assess
    expect(labels).toEqual({ team: '0', tier: '1' });
  });

  it('gives a node labels that satisfy the requirements it came from', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            key: fc.constantFrom('team', 'tier', 'example.com/zone'),
            operator: fc.constantFrom<Operator>('In', 'NotIn', 'Exists', 'Gt', 'Lte'),
            values: fc.subarray(['0', '1', '2', 'a'], { minLength: 1 }),
          }),
          { maxLength: 4 },
        ),
        (list) => {
          // Prepare
          const set = reqs(
            ...list.map((r) => (['Gt', 'Lte'].includes(r.operator) ? { ...r, values: ['1'] } : r)),
          );
          const satisfiable = new Map(
            [...set].filter(([, r]) => !(r.complement === false && r.values.size === 0)),
          );

          // Act
          const labels = customLabels(satisfiable);

          // Assess
          expect(labelsSatisfy(labels, satisfiable)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('writing requirements back in the Kubernetes shape', () => {
  it('sorts by key and lists values in order', () => {
    // Act
    const list = toNodeSelector(
      reqs(
        { key: 'z', operator: 'NotIn', values: ['b', 'a'] },
        { key: 'a', operator: 'In', values: ['2', '1'] },
        { key: 'm', operator: 'DoesNotExist' },
      ),
    );

    // Assess
    expect(list).toEqual([
      { key: 'a', operator: 'In', values: ['1', '2'] },
      { key: 'm', operator: 'DoesNotExist', values: [] },
      { key: 'z', operator: 'NotIn', values: ['a', 'b'] },
    ]);
  });

  it('writes bounds inclusively and keeps both ends of a range', () => {
    // Act
    const list = toNodeSelector(
      reqs(
        { key: Label.instanceCpu, operator: 'Gt', values: ['2'] },
        { key: Label.instanceCpu, operator: 'Lt', values: ['17'] },
        { key: Label.instanceMemory, operator: 'Gte', values: ['0'] },
      ),
    );

    // Assess
    expect(list).toEqual([
      { key: Label.instanceCpu, operator: 'Gte', values: ['3'] },
      { key: Label.instanceCpu, operator: 'Lte', values: ['16'] },
      { key: Label.instanceMemory, operator: 'Gte', values: ['0'] },
    ]);
  });

  it('keeps excluded values next to bounds', () => {
    // Act
    const list = toNodeSelector(
      reqs(
        { key: 'k', operator: 'NotIn', values: ['5'] },
        { key: 'k', operator: 'Gt', values: ['2'] },
      ),
    );

    // Assess
    expect(list).toEqual([
      { key: 'k', operator: 'NotIn', values: ['5'] },
      { key: 'k', operator: 'Gte', values: ['3'] },
    ]);
  });

  it('carries minValues', () => {
    // Act
    const list = toNodeSelector(
      reqs({ key: Label.instanceFamily, operator: 'In', values: ['c5', 'm5'], minValues: 2 }),
    );

    // Assess
    expect(list).toEqual([
      { key: Label.instanceFamily, operator: 'In', values: ['c5', 'm5'], minValues: 2 },
    ]);
  });

  it('reads back to the same requirements', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              key: fc.constantFrom('a', 'b', Label.instanceCpu),
              operator: fc.constantFrom(...OPERATORS),
              values: fc.subarray(['1', '2', '3', '7', 'x'], { minLength: 1 }),
              minValues: fc.integer({ min: 1, max: 3 }),
            },
            { requiredKeys: ['key', 'operator', 'values'] },
          ),
          { maxLength: 5 },
        ),
        (list) => {
          // Prepare
          const original = reqs(
            ...list.map((r) =>
              ['Gt', 'Lt', 'Gte', 'Lte'].includes(r.operator)
                ? { ...r, values: [String(r.values.length * 2)] }
                : r,
            ),
          );

          // Act
          const roundTrip = fromNodeSelector(toNodeSelector(original));

          // Assess
          expect(roundTrip).toEqual(original);
        },
      ),
      { numRuns: 300 },
    );
  });
});
