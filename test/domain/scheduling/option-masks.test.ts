import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import { type Operator, requirement } from '../../../functions/domain/requirements/requirement.ts';
import {
  keyConflict,
  type Requirements,
  requirementsOf,
} from '../../../functions/domain/requirements/requirements.ts';
import type { InstanceTypeOption } from '../../../functions/domain/scheduling/instance-type-option.ts';
import { OFFERING_KEYS } from '../../../functions/domain/scheduling/offering-keys.ts';
import { OptionMasks } from '../../../functions/domain/scheduling/option-masks.ts';
import { anInstanceType } from '../../support/builders.ts';

/** Deliberately not in price or name order: the masks keep the order they are given. */
const OPTIONS: readonly InstanceTypeOption[] = [
  anInstanceType({ name: 'a2.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
  anInstanceType({ name: 'a.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
  anInstanceType({ name: 'b.xlarge', cpu: 4, memoryGiB: 16, price: 0.2, zones: ['test-zone-a'] }),
  anInstanceType({
    name: 'c.2xlarge',
    cpu: 8,
    memoryGiB: 32,
    price: 0.3,
    zones: ['test-zone-b', 'test-zone-c'],
    capacityTypes: ['on-demand'],
  }),
  anInstanceType({
    name: 'd.4xlarge',
    cpu: 16,
    memoryGiB: 64,
    price: 0.12,
    arch: 'arm64',
    zones: ['test-zone-c'],
    unavailable: ['test-zone-c/spot'],
  }),
].map((instanceType) => ({ instanceType, net: instanceType.allocatable }));

function masks(): OptionMasks {
  return new OptionMasks(OPTIONS, [...OFFERING_KEYS]);
}

function reqs(key: string, operator: Operator, values: string[] = []): Requirements {
  return requirementsOf([requirement(key, operator, values)]);
}

describe('the requirement masks of a NodePool', () => {
  it.each([
    ['In', Label.instanceCpu, 'In' as const, ['4', '8'], [0, 0, 1, 1, 0]],
    ['NotIn', Label.instanceCpu, 'NotIn' as const, ['2'], [0, 0, 1, 1, 1]],
    ['Exists', Label.instanceCpu, 'Exists' as const, [], [1, 1, 1, 1, 1]],
    ['DoesNotExist', Label.instanceCpu, 'DoesNotExist' as const, [], [0, 0, 0, 0, 0]],
    ['Gt', Label.instanceCpu, 'Gt' as const, ['4'], [0, 0, 0, 1, 1]],
    ['Lt', Label.instanceCpu, 'Lt' as const, ['8'], [1, 1, 1, 0, 0]],
    ['Gte', Label.instanceCpu, 'Gte' as const, ['8'], [0, 0, 0, 1, 1]],
    ['In on arch', Label.arch, 'In' as const, ['arm64'], [0, 0, 0, 0, 1]],
    ['In on a key no type has', 'team', 'In' as const, ['a'], [1, 1, 1, 1, 1]],
  ])(
    'marks the options a %s requirement keeps, as keyConflict judges them',
    (_label, key, operator, values, expected) => {
      // Prepare
      const requirements = reqs(key, operator, values);

      // Act
      const mask = masks().keyMask(key, requirements);

      // Assess
      expect([...mask]).toEqual(expected);
      const judged = OPTIONS.map((o) =>
        keyConflict(o.instanceType.requirements, requirements, key) === undefined ? 1 : 0,
      );
      expect([...mask]).toEqual(judged);
    },
  );

  it.each([
    ['a zone', reqs(Label.zone, 'In', ['test-zone-a']), [1, 1, 1, 0, 0]],
    [
      'spot in one zone',
      requirementsOf([
        requirement(Label.zone, 'In', ['test-zone-c']),
        requirement(Label.capacityType, 'In', ['spot']),
      ]),
      [1, 1, 0, 0, 0],
    ],
    ['on-demand', reqs(Label.capacityType, 'In', ['on-demand']), [1, 1, 1, 1, 1]],
    ['a zone nobody offers', reqs(Label.zone, 'In', ['test-zone-z']), [0, 0, 0, 0, 0]],
  ])('marks the options with an available offering in %s', (_label, requirements, expected) => {
    // Act
    const mask = masks().offeringMask(requirements);

    // Assess
    expect([...mask]).toEqual(expected);
  });
});

describe('the priced options of a NodePool', () => {
  function listed(requirements: Requirements) {
    return masks()
      .priced(requirements)
      .map(({ index, offering }) => [
        OPTIONS[index]?.instanceType.name,
        offering.zone,
        offering.capacityType,
      ]);
  }

  it('lists options by their cheapest allowed offering, then by name, then by zone', () => {
    // Act
    const list = listed(new Map());

    // Assess
    expect(list).toEqual([
      ['a.large', 'test-zone-a', 'spot'],
      ['a2.large', 'test-zone-a', 'spot'],
      ['b.xlarge', 'test-zone-a', 'spot'],
      ['d.4xlarge', 'test-zone-c', 'on-demand'],
      ['c.2xlarge', 'test-zone-b', 'on-demand'],
    ]);
  });

  it('prices only the offerings the requirements allow and leaves out options without one', () => {
    // Prepare
    const requirements = requirementsOf([
      requirement(Label.zone, 'In', ['test-zone-b', 'test-zone-c']),
      requirement(Label.capacityType, 'In', ['on-demand']),
    ]);

    // Act
    const list = listed(requirements);

    // Assess
    expect(list).toEqual([
      ['a.large', 'test-zone-b', 'on-demand'],
      ['a2.large', 'test-zone-b', 'on-demand'],
      ['d.4xlarge', 'test-zone-c', 'on-demand'],
      ['c.2xlarge', 'test-zone-b', 'on-demand'],
    ]);
  });
});

describe('memoising masks and prices', () => {
  it('returns the same mask for equal requirements built separately', () => {
    // Prepare
    const subject = masks();
    const first = reqs(Label.instanceCpu, 'In', ['4', '8']);
    const second = reqs(Label.instanceCpu, 'In', ['8', '4']);

    // Act
    const a = subject.keyMask(Label.instanceCpu, first);
    const b = subject.keyMask(Label.instanceCpu, second);
    const other = subject.keyMask(Label.instanceCpu, reqs(Label.instanceCpu, 'In', ['4']));

    // Assess
    expect(b).toBe(a);
    expect(other).not.toBe(a);
    expect([...other]).toEqual([0, 0, 1, 0, 0]);
  });

  it('keeps masks of different keys apart even for the same requirements', () => {
    // Prepare
    const subject = masks();
    const requirements = requirementsOf([
      requirement(Label.instanceCpu, 'In', ['16']),
      requirement(Label.arch, 'In', ['amd64']),
    ]);

    // Act
    const byCpu = subject.keyMask(Label.instanceCpu, requirements);
    const byArch = subject.keyMask(Label.arch, requirements);

    // Assess
    expect([...byCpu]).toEqual([0, 0, 0, 0, 1]);
    expect([...byArch]).toEqual([1, 1, 1, 1, 0]);
  });

  it('returns the same offering mask and price list while the offering keys are equal', () => {
    // Prepare
    const subject = masks();
    const first = requirementsOf([
      requirement(Label.zone, 'In', ['test-zone-a', 'test-zone-b']),
      requirement(Label.capacityType, 'In', ['spot']),
    ]);
    const second = requirementsOf([
      requirement(Label.capacityType, 'In', ['spot']),
      requirement(Label.zone, 'In', ['test-zone-b', 'test-zone-a']),
      requirement(Label.arch, 'In', ['amd64']),
    ]);

    // Act
    const masksOf = [subject.offeringMask(first), subject.offeringMask(second)];
    const pricesOf = [subject.priced(first), subject.priced(second)];
    const onDemand = subject.priced(reqs(Label.capacityType, 'In', ['on-demand']));

    // Assess
    expect(masksOf[1]).toBe(masksOf[0]);
    expect(pricesOf[1]).toBe(pricesOf[0]);
    expect(onDemand).not.toBe(pricesOf[0]);
    expect(onDemand).toHaveLength(OPTIONS.length);
  });
});
