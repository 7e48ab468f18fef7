import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  EMPTY,
  firstShortfall,
  fits,
  formatResource,
  GiB,
  MiB,
  max,
  parseResource,
  parseResources,
  type Resources,
  subtract,
} from '../../functions/domain/resources.ts';

describe('parsing resource lists', () => {
  it('reads cpu in millicores and everything else in whole units', () => {
    // Act
    const resources = parseResources({
      cpu: '1500m',
      memory: '1Gi',
      'ephemeral-storage': '10G',
      pods: 110,
      'nvidia.com/gpu': '1',
    });

    // Assess
    expect(resources).toEqual({
      cpu: 1500,
      memory: GiB,
      'ephemeral-storage': 10_000_000_000,
      pods: 110,
      'nvidia.com/gpu': 1,
    });
  });

  it('reads an absent list as empty', () => {
    // Act
    const resources = parseResources(undefined);

    // Assess
    expect(resources).toBe(EMPTY);
  });

  it.each([
    ['cpu', '0.5', 500],
    ['cpu', 2, 2000],
    ['memory', '512Mi', 512 * MiB],
    ['memory', '100m', 1],
  ])('reads %s %j as %d', (name, quantity, amount) => {
    // Act
    const result = parseResource(name, quantity);

    // Assess
    expect(result).toBe(amount);
  });
});

describe('resource arithmetic', () => {
  it.each<[string, Resources[], Resources]>([
    ['nothing', [], {}],
    ['one list', [{ cpu: 1 }], { cpu: 1 }],
    ['lists with different keys', [{ cpu: 1 }, { memory: 2 }, { cpu: 3 }], { cpu: 4, memory: 2 }],
  ])('adds %s', (_name, lists, sum) => {
    // Act
    const result = add(...lists);

    // Assess
    expect(result).toEqual(sum);
  });

  it('subtracts per key and goes negative for what is missing', () => {
    // Act
    const result = subtract({ cpu: 1000, memory: 10 }, { cpu: 250, pods: 1 });

    // Assess
    expect(result).toEqual({ cpu: 750, memory: 10, pods: -1 });
  });

  it('takes the element-wise maximum', () => {
    // Act
    const result = max({ cpu: 1, memory: 5 }, { cpu: 3 }, { pods: 1 });

    // Assess
    expect(result).toEqual({ cpu: 3, memory: 5, pods: 1 });
  });

  it('never changes its inputs', () => {
    // Prepare
    const a = Object.freeze({ cpu: 1 });
    const b = Object.freeze({ cpu: 2 });

    // Act
    const results = [add(a, b), subtract(a, b), max(a, b)];

    // Assess
    expect(results).toEqual([{ cpu: 3 }, { cpu: -1 }, { cpu: 2 }]);
    expect(a).toEqual({ cpu: 1 });
  });

  it('undoes an addition with a subtraction', () => {
    const list = fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods', 'gpu'), fc.nat(1_000_000));
    fc.assert(
      fc.property(list, list, (a, b) => {
        // Act
        const result = subtract(add(a, b), b);

        // Assess
        for (const name of Object.keys(a)) expect(result[name]).toBe(a[name]);
      }),
    );
  });
});

describe('whether requests fit', () => {
  it.each<[string, Resources, Resources, boolean, string | undefined]>([
    ['exactly the capacity', { cpu: 1000, memory: 5 }, { cpu: 1000, memory: 5 }, true, undefined],
    ['more cpu than there is', { cpu: 1001 }, { cpu: 1000 }, false, 'cpu'],
    ['a resource the node lacks', { 'nvidia.com/gpu': 1 }, { cpu: 1000 }, false, 'nvidia.com/gpu'],
    ['a zero request of a missing resource', { 'nvidia.com/gpu': 0 }, {}, true, undefined],
    ['nothing', {}, {}, true, undefined],
    ['negative room', { cpu: 1 }, { cpu: -5 }, false, 'cpu'],
    [
      'two shortfalls, named alphabetically',
      { pods: 2, memory: 9 },
      { pods: 1, memory: 1 },
      false,
      'memory',
    ],
  ])('judges %s', (_name, requests, available, fitsResult, shortfall) => {
    // Act
    const result = fits(requests, available);

    // Assess
    expect(result).toBe(fitsResult);
    expect(firstShortfall(requests, available)).toBe(shortfall);
  });
});

describe('formatting amounts for people', () => {
  it.each<[string, number, string]>([
    ['cpu', 1500, '1500m'],
    ['cpu', 2000, '2'],
    ['cpu', 0, '0'],
    ['memory', 2 * GiB, '2Gi'],
    ['memory', 512 * MiB, '512Mi'],
    ['memory', 1000, '1000'],
    ['ephemeral-storage', 20 * GiB, '20Gi'],
    ['pods', 110, '110'],
    ['nvidia.com/gpu', 4, '4'],
  ])('writes %s %d as %s', (name, amount, text) => {
    // Act
    const result = formatResource(name, amount);

    // Assess
    expect(result).toBe(text);
  });
});
