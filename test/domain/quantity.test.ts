import { describe, expect, it } from 'vitest';
import {
  isQuantity,
  parseMillis,
  parseUnits,
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
