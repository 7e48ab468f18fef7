import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import {
  has,
  intersect,
  isEmpty,
  operatorOf,
  type Requirement,
  requirement,
} from '../../../functions/domain/requirements/requirement.ts';
import { ANY_NODE } from '../../../functions/domain/scheduling/topology/node-filter.ts';
import {
  TopologyGroup,
  type TopologyGroupSpec,
  type TopologyType,
} from '../../../functions/domain/scheduling/topology/topology-group.ts';

const ANY_ZONE = requirement(Label.zone, 'Exists');

function aGroup(
  type: TopologyType,
  counts: Record<string, number>,
  extra: Partial<TopologyGroupSpec> = {},
): TopologyGroup {
  const group = new TopologyGroup({
    type,
    key: Label.zone,
    namespaces: new Set(['default']),
    selector: { matchLabels: { app: 'web' } },
    maxSkew: type === 'spread' ? 1 : Number.MAX_SAFE_INTEGER,
    nodeFilter: ANY_NODE,
    ...extra,
  });
  for (const [domain, count] of Object.entries(counts)) {
    group.register(domain);
    for (let i = 0; i < count; i++) group.record(domain);
  }
  return group;
}

function domainsOf(req: Requirement): string[] | 'none' {
  return operatorOf(req) === 'DoesNotExist' ? 'none' : [...req.values].sort();
}

const zones = (...values: string[]) => requirement(Label.zone, 'In', values);

describe('the next domain of a topology spread', () => {
  it.each<[string, Record<string, number>, Requirement, Requirement, boolean, string[] | 'none']>([
    ['the least loaded domain', { a: 2, b: 0, c: 1 }, ANY_ZONE, ANY_ZONE, true, ['b']],
    [
      'the first name among equally loaded domains',
      { c: 0, a: 0, b: 0 },
      ANY_ZONE,
      ANY_ZONE,
      true,
      ['a'],
    ],
    [
      'the least loaded domain the node can take',
      { a: 2, b: 1, c: 1 },
      ANY_ZONE,
      zones('a', 'c'),
      true,
      ['c'],
    ],
    [
      'nothing when the node only offers a domain over the skew',
      { a: 1, b: 0 },
      ANY_ZONE,
      zones('a'),
      true,
      'none',
    ],
    [
      'a loaded domain when the pod does not count itself',
      { a: 1, b: 0 },
      ANY_ZONE,
      zones('a'),
      false,
      ['a'],
    ],
    [
      'a domain measured against the minimum of the domains the pod may use',
      { a: 0, b: 3, c: 3 },
      zones('b', 'c'),
      zones('b'),
      true,
      ['b'],
    ],
  ])('is %s', (_name, counts, podDomains, nodeDomains, selfSelecting, expected) => {
    // Prepare
    const group = aGroup('spread', counts);

    // Act
    const next = group.next(selfSelecting, podDomains, nodeDomains);

    // Assess
    expect(domainsOf(next)).toEqual(expected);
  });

  it('allows a larger skew when maxSkew says so', () => {
    // Prepare
    const group = aGroup('spread', { a: 2, b: 0 }, { maxSkew: 3 });

    // Act
    const next = group.next(true, ANY_ZONE, zones('a'));

    // Assess
    expect(domainsOf(next)).toEqual(['a']);
  });

  it('treats the global minimum as zero while fewer domains than minDomains exist', () => {
    // Prepare
    const below = aGroup('spread', { a: 1, b: 1 }, { minDomains: 3 });
    const reached = aGroup('spread', { a: 1, b: 1 }, { minDomains: 2 });

    // Act
    const nextBelow = below.next(true, ANY_ZONE, ANY_ZONE);
    const nextReached = reached.next(true, ANY_ZONE, ANY_ZONE);

    // Assess
    expect(domainsOf(nextBelow)).toBe('none');
    expect(domainsOf(nextReached)).toEqual(['a']);
  });

  it('counts the minimum of a hostname spread as zero, since a new node can always be made', () => {
    // Prepare
    const group = aGroup('spread', {}, { key: Label.hostname });
    group.register('node-a');
    group.record('node-a');
    group.register('node-b');
    group.record('node-b');

    // Act
    const next = group.next(
      true,
      requirement(Label.hostname, 'Exists'),
      requirement(Label.hostname, 'In', ['node-a']),
    );

    // Assess
    expect(domainsOf(next)).toBe('none');
  });
});

describe('the next domain of a pod affinity', () => {
  it('is every occupied domain the pod may use', () => {
    // Prepare
    const group = aGroup('affinity', { a: 0, b: 1, c: 2 });

    // Act
    const next = group.next(false, zones('a', 'b'), ANY_ZONE);

    // Assess
    expect(domainsOf(next)).toEqual(['b']);
  });

  it('is nothing while no selected pod runs anywhere', () => {
    // Prepare
    const group = aGroup('affinity', { a: 0, b: 0 });

    // Act
    const next = group.next(false, ANY_ZONE, ANY_ZONE);

    // Assess
    expect(domainsOf(next)).toBe('none');
  });

  it('bootstraps a self-selecting pod into the first domain', () => {
    // Prepare
    const group = aGroup('affinity', { b: 0, a: 0 });

    // Act
    const next = group.next(true, ANY_ZONE, ANY_ZONE);

    // Assess
    expect(domainsOf(next)).toEqual(['a']);
  });

  it('bootstraps into a domain the node already has', () => {
    // Prepare
    const group = aGroup('affinity', { a: 0, b: 0, c: 0 });

    // Act
    const next = group.next(true, ANY_ZONE, zones('c'));

    // Assess
    expect(domainsOf(next)).toEqual(['c']);
  });

  it('follows the group once a selected pod is placed', () => {
    // Prepare
    const group = aGroup('affinity', { a: 0, b: 0 });
    group.record('b');

    // Act
    const next = group.next(true, ANY_ZONE, ANY_ZONE);

    // Assess
    expect(domainsOf(next)).toEqual(['b']);
    expect(group.isOccupied).toBe(true);
  });
});

describe('the next domain of a pod anti-affinity', () => {
  it('is every empty domain the pod and node allow', () => {
    // Prepare
    const group = aGroup('antiAffinity', { a: 1, b: 0, c: 0, d: 0 });

    // Act
    const next = group.next(true, zones('a', 'b', 'c'), zones('a', 'b', 'c', 'd'));

    // Assess
    expect(domainsOf(next)).toEqual(['b', 'c']);
  });

  it('is nothing once every domain holds a selected pod', () => {
    // Prepare
    const group = aGroup('antiAffinity', { a: 1, b: 1 });

    // Act
    const next = group.next(true, ANY_ZONE, ANY_ZONE);

    // Assess
    expect(domainsOf(next)).toBe('none');
  });
});

describe('the domains a group knows', () => {
  it('learns a domain when a pod is recorded there', () => {
    // Prepare
    const group = aGroup('spread', {});

    // Act
    group.record('new');

    // Assess
    expect(group.count('new')).toBe(1);
    expect(domainsOf(group.next(true, ANY_ZONE, ANY_ZONE))).toEqual(['new']);
  });

  it('selects pods by namespace and labels', () => {
    // Prepare
    const group = aGroup('spread', {});

    // Act
    const answers = [
      group.selects('default', { app: 'web' }),
      group.selects('other', { app: 'web' }),
      group.selects('default', { app: 'db' }),
    ];

    // Assess
    expect(answers).toEqual([true, false, false]);
  });
});

const aZone = fc.constantFrom('a', 'b', 'c', 'd');
const aZoneRequirement = fc.oneof(
  fc.constant(ANY_ZONE),
  fc.uniqueArray(aZone, { maxLength: 4 }).map((values) => zones(...values)),
  fc
    .uniqueArray(aZone, { minLength: 1, maxLength: 2 })
    .map((values) => requirement(Label.zone, 'NotIn', values)),
);

describe('the domains a pod could take now', () => {
  it('are the ones a node must allow for `next` to leave it any', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<TopologyType>('spread', 'affinity', 'antiAffinity'),
        fc.dictionary(aZone, fc.integer({ min: 0, max: 3 })),
        fc.integer({ min: 1, max: 2 }),
        fc.boolean(),
        aZoneRequirement,
        aZoneRequirement,
        (type, counts, maxSkew, selfSelecting, podDomains, nodeDomains) => {
          // Prepare
          const group = aGroup(type, counts, type === 'spread' ? { maxSkew } : {});

          // Act
          const eligible = group.eligibleDomains(selfSelecting, podDomains) ?? [];
          const next = intersect(nodeDomains, group.next(selfSelecting, podDomains, nodeDomains));

          // Assess
          expect(eligible.some((d) => has(nodeDomains, d))).toBe(!isEmpty(next));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('are not known for a hostname group, whose new nodes are named later', () => {
    // Prepare
    const group = aGroup('antiAffinity', { 'node-a': 1 }, { key: Label.hostname });

    // Act
    const eligible = group.eligibleDomains(true, requirement(Label.hostname, 'Exists'));

    // Assess
    expect(eligible).toBeUndefined();
  });
});
