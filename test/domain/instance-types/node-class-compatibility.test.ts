import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../functions/domain/instance-types/catalog.ts';
import { isCompatibleWithNodeClass } from '../../../functions/domain/instance-types/node-class-compatibility.ts';
import type {
  PlacementGroup,
  PlacementStrategy,
} from '../../../functions/domain/placement-group.ts';
import { aNodeClass, buildOne, catalogEntry } from './builders.ts';

const TIMEOUTS = { tcpEstablishedTimeout: 300 };
const PRIMARY = { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' } as const;
const EFA_ONLY_0_1 = { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' } as const;

/** Karpenter's `makeNetworkInfo(cards, maxENIs, maxEFAs)` as catalog facts. */
function network(cards: number, maxEnis: number, maxEfaInterfaces: number | undefined) {
  return { networkCards: cards, maxEnis, maxEfaInterfaces };
}

/** A type as DescribeInstanceTypes lists it, with the placement strategies it supports. */
function supporting(name: string, strategies?: readonly PlacementStrategy[]): CatalogEntry {
  return strategies === undefined
    ? catalogEntry(name)
    : { ...catalogEntry(name), placementStrategies: strategies };
}

const groupOf = (strategy: PlacementStrategy): PlacementGroup => ({
  id: 'pg-0123456789abcdef0',
  name: 'group',
  strategy,
  ...(strategy === 'partition' ? { partitionCount: 3 } : {}),
});

describe('isCompatibleWithNodeClass', () => {
  // aws: pkg/providers/instancetype/compatibility/suite_test.go, PlacementGroupCompatibility
  it.each([
    ['no placement group', 'm5.large', ['cluster'], undefined, true],
    ['cluster strategy supported', 'm5.large', ['cluster', 'partition', 'spread'], 'cluster', true],
    ['cluster strategy not supported', 't3.medium', ['partition', 'spread'], 'cluster', false],
    [
      'partition strategy supported',
      'm5.large',
      ['cluster', 'partition', 'spread'],
      'partition',
      true,
    ],
    ['partition strategy not supported', 't3.medium', ['spread'], 'partition', false],
    ['spread strategy supported', 'm5.large', ['spread'], 'spread', true],
    ['spread strategy not supported', 't3.medium', ['cluster'], 'spread', false],
    ['strategies not known (the bundled catalog)', 't3.medium', undefined, 'cluster', true],
  ] as const)('takes %s: %s', (_case, name, strategies, strategy, expected) => {
    // Prepare
    const group = strategy === undefined ? undefined : groupOf(strategy);

    // Act
    const compatible = isCompatibleWithNodeClass(supporting(name, strategies), aNodeClass(), group);

    // Assess
    expect(compatible).toBe(expected);
  });

  // aws: pkg/providers/instancetype/compatibility/suite_test.go, ConnectionTrackingCompatibility
  it.each([
    ['a Nitro type with connection tracking', 'm5.large', TIMEOUTS, true],
    ['a Xen type with connection tracking', 'm4.large', TIMEOUTS, false],
    ['a bare-metal type with connection tracking', 'm5.metal', TIMEOUTS, false],
    ['a Xen type without connection tracking', 'm4.large', undefined, true],
    ['a Nitro type without connection tracking', 'm5.large', undefined, true],
  ])('takes %s: %s', (_case, name, connectionTracking, expected) => {
    // Prepare
    const nodeClass = aNodeClass(connectionTracking === undefined ? {} : { connectionTracking });

    // Act
    const compatible = isCompatibleWithNodeClass(catalogEntry(name), nodeClass);

    // Assess
    expect(compatible).toBe(expected);
  });

  // aws: pkg/providers/instancetype/compatibility/suite_test.go, NetworkInterfaceCompatibility
  it.each([
    [
      'takes a type with one EFA interface for one EFA-only interface',
      [PRIMARY, { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' }],
      network(1, 2, 1),
      true,
    ],
    [
      'takes a type with two EFA interfaces for two EFA-only interfaces on two cards',
      [PRIMARY, EFA_ONLY_0_1, { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' }],
      network(2, 2, 2),
      true,
    ],
    [
      'refuses more EFA-only interfaces than the type has',
      [PRIMARY, EFA_ONLY_0_1, { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' }],
      network(2, 2, 1),
      false,
    ],
    ['refuses a type without EFA', [PRIMARY, EFA_ONLY_0_1], network(1, 4, undefined), false],
    [
      'refuses a card the type lacks',
      [{ networkCardIndex: 1, deviceIndex: 0, interfaceType: 'interface' }],
      network(1, 4, undefined),
      false,
    ],
    [
      'refuses a device index beyond the card',
      [{ networkCardIndex: 0, deviceIndex: 5, interfaceType: 'interface' }],
      network(1, 4, undefined),
      false,
    ],
  ] as const)('%s', (_case, networkInterfaces, facts, expected) => {
    // Prepare
    const nodeClass = aNodeClass({ networkInterfaces });

    // Act
    const compatible = isCompatibleWithNodeClass(
      { ...catalogEntry('m5.large'), ...facts },
      nodeClass,
    );

    // Assess
    expect(compatible).toBe(expected);
  });

  it('gives a type whose ENI limits are unpublished the benefit of the doubt on cards', () => {
    // Prepare
    const nodeClass = aNodeClass({ networkInterfaces: [PRIMARY, EFA_ONLY_0_1] });

    // Act
    const compatible = isCompatibleWithNodeClass(catalogEntry('trn2.48xlarge'), nodeClass);

    // Assess
    expect(compatible).toBe(true);
  });

  // aws: pkg/providers/instancetype/suite_test.go, "should mark instance type offering as unavailable when it does not support network interface configuration"
  it('keeps a type the class rules out, with every offering unavailable', () => {
    // Prepare
    const efaOnlyOnFiveCards = [0, 1, 2, 3, 4].map((card) => ({
      networkCardIndex: card,
      deviceIndex: card === 0 ? 1 : 0,
      interfaceType: 'efa-only' as const,
    }));
    const nodeClass = aNodeClass({ networkInterfaces: [PRIMARY, ...efaOnlyOnFiveCards] });

    // Act
    const dl1 = buildOne('dl1.24xlarge', { nodeClass });

    // Assess
    expect(dl1.offerings).not.toEqual([]);
    expect(dl1.offerings.filter((offering) => offering.available)).toEqual([]);
  });

  // aws: pkg/providers/instancetype/suite_test.go, "should mark instance type offering as available when it supports network interface configuration"
  it('keeps the offerings of a type that takes the class’s interfaces available', () => {
    // Prepare
    const nodeClass = aNodeClass({ networkInterfaces: [PRIMARY, EFA_ONLY_0_1] });

    // Act
    const before = buildOne('dl1.24xlarge');
    const after = buildOne('dl1.24xlarge', { nodeClass });

    // Assess
    expect(after.offerings.filter((o) => o.available)).toHaveLength(
      before.offerings.filter((o) => o.available).length,
    );
    expect(after.offerings.some((o) => o.available)).toBe(true);
  });
});
