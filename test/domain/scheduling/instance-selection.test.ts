import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { type CapacityType, Label } from '../../../functions/domain/labels.ts';
import type { NodeSelectorRequirement } from '../../../functions/domain/requirements/requirement.ts';
import {
  MAX_INSTANCE_TYPES,
  selectInstances,
} from '../../../functions/domain/scheduling/instance-selection.ts';
import { nodeClaimTemplate } from '../../../functions/domain/scheduling/node-claim-template.ts';
import { aNodePool, anInstanceType, type InstanceTypeOptions } from '../../support/builders.ts';

const ALL: CapacityType[] = ['reserved', 'spot', 'on-demand'];

/** The test catalog's m.large (2 vCPU, 8 GiB, $0.10), with `options` over it. */
function mLarge(options: Partial<InstanceTypeOptions> = {}): InstanceType {
  return anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1, ...options });
}

function capacityTypes(values: readonly string[]): NodeSelectorRequirement {
  return { key: Label.capacityType, operator: 'In', values };
}

function select(options: {
  readonly requirements?: readonly NodeSelectorRequirement[];
  readonly catalog: readonly InstanceType[];
  readonly isOpen?: (index: number) => boolean;
}) {
  const template = nodeClaimTemplate({
    nodePool: aNodePool(
      options.requirements === undefined ? {} : { requirements: options.requirements },
    ),
    instanceTypes: options.catalog,
    daemonSets: [],
  });
  const selection = selectInstances({
    template,
    requirements: template.requirements,
    isOpen: options.isOpen ?? (() => true),
  });
  return { template, selection };
}

function names(selection: ReturnType<typeof select>['selection']): string[] {
  return (selection?.options ?? []).map((o) => o.instanceType.name);
}

describe('choosing the capacity type of a claim', () => {
  it.each([
    ['reserved when the pool allows it and a type offers it', ALL, ALL, [], 'reserved'],
    ['spot when the pool does not allow reserved', ['spot', 'on-demand'], ALL, [], 'spot'],
    ['spot when no type offers reserved', ALL, ['spot', 'on-demand'], [], 'spot'],
    [
      'on-demand when spot is not allowed',
      ['reserved', 'on-demand'],
      ['spot', 'on-demand'],
      [],
      'on-demand',
    ],
    [
      'spot when every reserved offering is unavailable',
      ALL,
      ALL,
      ['test-zone-a/reserved', 'test-zone-b/reserved', 'test-zone-c/reserved'],
      'spot',
    ],
  ])('launches %s', (_label, allowed, offered, unavailable, expected) => {
    // Prepare
    const catalog = [
      mLarge({
        capacityTypes: offered as CapacityType[],
        unavailable,
      }),
    ];

    // Act
    const { selection } = select({ requirements: [capacityTypes(allowed)], catalog });

    // Assess
    expect(selection?.capacityType).toBe(expected);
    expect(selection?.options[0]?.offering.capacityType).toBe(expected);
    expect([...(selection?.requirements.get(Label.capacityType)?.values ?? [])]).toEqual([
      expected,
    ]);
  });

  it('launches on-demand when the pool names no capacity type', () => {
    // Prepare
    const catalog = [mLarge()];

    // Act
    const { selection } = select({ requirements: [], catalog });

    // Assess
    expect(selection?.capacityType).toBe('on-demand');
  });

  it('keeps only the options that offer the chosen capacity type', () => {
    // Prepare
    const catalog = [
      anInstanceType({
        name: 'od.large',
        cpu: 2,
        memoryGiB: 8,
        price: 0.05,
        capacityTypes: ['on-demand'],
      }),
      mLarge(),
    ];

    // Act
    const { selection } = select({ catalog });

    // Assess
    expect(selection?.capacityType).toBe('spot');
    expect(names(selection)).toEqual(['m.large']);
  });

  it('selects nothing when no option is open', () => {
    // Prepare
    const catalog = [mLarge()];

    // Act
    const { selection } = select({ catalog, isOpen: () => false });

    // Assess
    expect(selection).toBeUndefined();
  });
});

describe('ordering the options of a claim', () => {
  it('lists options cheapest first, breaking price ties by name, and skips closed ones', () => {
    // Prepare
    const catalog = [
      anInstanceType({ name: 'z.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
      anInstanceType({ name: 'b.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
      anInstanceType({ name: 'y.xlarge', cpu: 4, memoryGiB: 16, price: 0.08 }),
      anInstanceType({ name: 'x.2xlarge', cpu: 8, memoryGiB: 32, price: 0.3 }),
    ];

    // Act
    const all = select({ catalog });
    const closed = all.template.options.findIndex((o) => o.instanceType.name === 'b.large');
    const open = select({ catalog, isOpen: (i) => i !== closed });

    // Assess
    expect(names(all.selection)).toEqual(['y.xlarge', 'b.large', 'z.large', 'x.2xlarge']);
    expect(names(open.selection)).toEqual(['y.xlarge', 'z.large', 'x.2xlarge']);
  });

  it.each([
    ['the first zone by name among equal prices', [], 'test-zone-a'],
    ['the next zone when the first is unavailable', ['test-zone-a/spot'], 'test-zone-b'],
  ])('launches in %s', (_label, unavailable, zone) => {
    // Prepare
    const catalog = [
      mLarge({
        zones: ['test-zone-c', 'test-zone-b', 'test-zone-a'],
        unavailable,
      }),
    ];

    // Act
    const { selection } = select({ catalog });

    // Assess
    expect(selection?.options[0]?.offering).toMatchObject({ zone, capacityType: 'spot' });
  });

  it('prefers a cheaper zone to an earlier name', () => {
    // Prepare
    const cheapInC = mLarge();
    const catalog = [
      {
        ...cheapInC,
        offerings: cheapInC.offerings.map((o) =>
          o.zone === 'test-zone-c' ? { ...o, pricePerHour: o.pricePerHour / 2 } : o,
        ),
      },
    ];

    // Act
    const { selection } = select({ catalog });

    // Assess
    expect(selection?.options[0]?.offering).toMatchObject({ zone: 'test-zone-c' });
  });
});

describe('truncating the options of a claim', () => {
  const SIZE = MAX_INSTANCE_TYPES + 100;

  /** `count` types, each dearer than the last; `familyOf` names the family of the i-th. */
  function catalog(familyOf: (i: number) => string): InstanceType[] {
    return Array.from({ length: SIZE }, (_, i) =>
      anInstanceType({
        name: `${familyOf(i)}.s${String(i).padStart(4, '0')}`,
        cpu: 2,
        memoryGiB: 8,
        price: 0.01 + i / 10_000,
      }),
    );
  }

  const families = { key: Label.instanceFamily, operator: 'Exists' as const, minValues: 2 };

  it('keeps the 600 cheapest options', () => {
    // Act
    const { selection } = select({ catalog: catalog(() => 'a') });

    // Assess
    const list = names(selection);
    expect(list).toHaveLength(MAX_INSTANCE_TYPES);
    expect(list[0]).toBe('a.s0000');
    expect(list.at(-1)).toBe('a.s0599');
  });

  it('truncates when the 600 cheapest still meet minValues', () => {
    // Act
    const { selection } = select({
      requirements: [capacityTypes(['spot']), families],
      catalog: catalog((i) => (i % 2 === 0 ? 'a' : 'b')),
    });

    // Assess
    expect(names(selection)).toHaveLength(MAX_INSTANCE_TYPES);
    expect(selection?.requirements.get(Label.instanceFamily)?.minValues).toBe(2);
  });

  it('keeps every option when truncating would break minValues', () => {
    // Act
    const { selection } = select({
      requirements: [capacityTypes(['spot']), families],
      catalog: catalog((i) => (i < SIZE - 10 ? 'a' : 'b')),
    });

    // Assess
    const list = names(selection);
    expect(list).toHaveLength(SIZE);
    expect(new Set(list.map((n) => n.split('.')[0]))).toEqual(new Set(['a', 'b']));
  });
});
