import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import {
  type BuildInstanceTypesOptions,
  buildInstanceTypes,
} from '../../../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import { aNodeClass, catalogEntry, ZONES } from './builders.ts';

function bundledOptions(overrides: Partial<BuildInstanceTypesOptions> = {}) {
  return {
    catalog: BUNDLED_CATALOG,
    region: 'us-east-1',
    prices: onDemandPrices('us-east-1').prices,
    zones: ZONES,
    ...overrides,
  };
}

describe('buildInstanceTypes', () => {
  it('builds every bundled type, sorted by name', () => {
    // Prepare
    const options = bundledOptions();

    // Act
    const instanceTypes = buildInstanceTypes(options);

    // Assess
    const names = instanceTypes.map((instanceType) => instanceType.name);
    expect(names).toHaveLength(BUNDLED_CATALOG.length);
    expect(names).toEqual([...names].sort());
  });

  it('sorts by name whatever the catalog order', () => {
    // Prepare
    const catalog = ['t3.micro', 'c6g.large', 'm5.large'].map(catalogEntry);

    // Act
    const instanceTypes = buildInstanceTypes(bundledOptions({ catalog }));

    // Assess
    expect(instanceTypes.map((instanceType) => instanceType.name)).toEqual([
      'c6g.large',
      'm5.large',
      't3.micro',
    ]);
  });

  it('gives the same result for the same options', () => {
    // Prepare
    const options = bundledOptions({ zones: ['us-east-1c', 'us-east-1a'] });

    // Act
    const first = buildInstanceTypes(options);
    const second = buildInstanceTypes(options);

    // Assess
    expect(second).toEqual(first);
  });

  it.each([
    ['AL2023', aNodeClass({ amiFamily: 'AL2023' })],
    ['Bottlerocket', aNodeClass({ amiFamily: 'Bottlerocket' })],
  ] as const)(
    'leaves positive allocatable CPU, memory, storage and pods on every type (%s)',
    (_, nodeClass) => {
      // Prepare
      const options = bundledOptions({ nodeClass });

      // Act
      const instanceTypes = buildInstanceTypes(options);

      // Assess
      const starved = instanceTypes.filter(({ allocatable }) =>
        ['cpu', 'memory', 'ephemeral-storage', 'pods'].some(
          (name) => !((allocatable[name] ?? 0) > 0),
        ),
      );
      expect(starved.map((instanceType) => instanceType.name)).toEqual([]);
    },
  );

  it('offers every type that has a us-east-1 price and no other', () => {
    // Prepare
    const { prices } = onDemandPrices('us-east-1');

    // Act
    const instanceTypes = buildInstanceTypes(bundledOptions({ prices }));

    // Assess
    const offered = instanceTypes.filter((instanceType) => instanceType.offerings.length > 0);
    expect(offered).toHaveLength(prices.size);
    for (const instanceType of offered) {
      expect(instanceType.offerings, instanceType.name).toHaveLength(2 * ZONES.length);
    }
  });
});
