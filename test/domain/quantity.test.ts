import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isQuantity,
  parseMillis,
  parseMillisExact,
  parseUnits,
  parseUnitsExact,
  QuantityError,
} from '../../functions/domain/quantity.ts';

describe('quantities', () => {
  it.each([
    ['100m', 100],
    ['1', 1000],
    ['1.5', 1500],
    ['0.1', 100],
    ['2k', 2_000_000],
    ['1e3', 1_000_000],
    ['250u', 1],
    ['0', 0],
  ])('reads %s as %d millis', (text, millis) => {
    expect(parseMillis(text)).toBe(millis);
  });

  it.each([
    ['512Mi', 512 * 1024 * 1024],
    ['1G', 1_000_000_000],
    ['1.5Gi', 1_610_612_736],
    ['1e3', 1000],
    ['100m', 1],
    ['64', 64],
    ['1Ki', 1024],
    ['.5Ki', 512],
  ])('reads %s as %d units, rounding fractions up', (text, units) => {
    expect(parseUnits(text)).toBe(units);
  });

  it('accepts numbers as YAML hands them over', () => {
    expect(parseMillis(2)).toBe(2000);
    expect(parseUnits(1.5)).toBe(2);
  });

  it.each(['', 'abc', '1.2.3', '5 Gi', '1Gb', 'Mi', '--1'])(
    'rejects %j with a message naming it',
    (text) => {
      expect(() => parseUnits(text)).toThrow(QuantityError);
      expect(() => parseUnits(text)).toThrow(`"${text}"`);
      expect(isQuantity(text)).toBe(false);
    },
  );
});

const MAX = 2n ** 63n - 1n;

describe('quantities over the API server range', () => {
  it.each([
    ['8Pi', 8n * 2n ** 50n],
    ['8Ei', MAX],
    ['7Ei', 7n * 2n ** 60n],
    ['100000000Gi', 100_000_000n * 2n ** 30n],
    ['9223372036854775807', MAX],
    ['9223372036854775808', MAX],
    ['1e18', 10n ** 18n],
    ['1E3', 1000n],
    ['1e999', MAX],
    ['1e-999', 1n],
    ['-1e999', -MAX],
    ['-0.5', -1n],
    ['-1.5Gi', -1_610_612_736n],
    ['0.000000000000000000000000000000001e40', 10_000_000n],
    ['0e2147483647', 0n],
  ])('reads %s as %d units, capped at 2^63-1', (text, units) => {
    expect(parseUnitsExact(text)).toBe(units);
  });

  it.each([
    ['1000000', 1_000_000_000n],
    ['9223372036854775807', MAX],
    ['9223372036854775m', 9_223_372_036_854_775n],
    ['1n', 1n],
    ['-1n', -1n],
  ])('reads CPU %s as %d millis, capped at 2^63-1', (text, millis) => {
    expect(parseMillisExact(text)).toBe(millis);
  });

  it('gives numbers that are exact up to 2^53 and the nearest double beyond', () => {
    expect(parseUnits('8Pi')).toBe(2 ** 53);
    expect(parseUnits('8Ei')).toBe(2 ** 63);
    expect(parseMillis('9007199254740991m')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(['1e2147483648', '1e-2147483649', '1e99999999999'])(
    'refuses %s, whose exponent does not fit 32 bits',
    (text) => {
      expect(() => parseUnits(text)).toThrow(/out of range/);
      expect(isQuantity(text)).toBe(false);
    },
  );

  /** The reference: the rational value with unbounded powers, rounded away from zero, capped. */
  function reference(sign: string, whole: string, fraction: string, exponent: number): bigint {
    const numerator = BigInt(`${whole}${fraction}` || '0');
    const denominator = 10n ** BigInt(fraction.length);
    const scaled = exponent >= 0 ? numerator * 10n ** BigInt(exponent) : numerator;
    const divisor = exponent >= 0 ? denominator : denominator * 10n ** BigInt(-exponent);
    const rounded = (scaled + divisor - 1n) / divisor;
    const capped = rounded > MAX ? MAX : rounded;
    return sign === '-' ? -capped : capped;
  }

  it('agrees with exact rational arithmetic', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^[0-9]{1,25}$/),
        fc.stringMatching(/^[0-9]{0,25}$/),
        fc.integer({ min: -70, max: 70 }),
        (sign, whole, fraction, exponent) => {
          const text = `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}e${exponent}`;
          const expected = reference(sign, whole, fraction, exponent);
          expect(parseUnitsExact(text)).toBe(expected === -0n ? 0n : expected);
        },
      ),
    );
  });
});
