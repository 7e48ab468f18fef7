/**
 * Resource quantities (`500m`, `1Gi`, `2e3`) read as plain numbers, enough for the comparisons the
 * server itself makes (QoS class). Kept local so the fake does not share code with what it tests.
 */

const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** The quantity's value, or undefined when it is not a quantity. */
export function quantityValue(text: string | number): number | undefined {
  if (typeof text === 'number') return text;
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))([eE][+-]?\d+|[a-zA-Z]*)$/.exec(text.trim());
  if (match === null) return undefined;
  const [, number = '', suffix = ''] = match;
  if (/^[eE]/.test(suffix)) return Number(`${number}${suffix}`);
  const multiplier = SUFFIXES[suffix];
  return multiplier === undefined ? undefined : Number(number) * multiplier;
}
