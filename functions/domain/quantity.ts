/**
 * Kubernetes resource quantities (`100m`, `1.5`, `512Mi`, `1G`, `1e3`) parsed exactly.
 *
 * Values are scaled to an integer unit with BigInt arithmetic so that no binary floating point
 * rounding creeps in: `parseMillis('0.1')` is exactly 100, `parseUnits('1.5Gi')` exactly
 * 1610612736. Fractions below the unit round up, as the API server does for `Value()`.
 */

const QUANTITY =
  /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

const BINARY: Readonly<Record<string, bigint>> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};

const DECIMAL_EXPONENT: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

/** Thrown for a string that is not a Kubernetes quantity; the message names the value. */
export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

interface Rational {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

function toRational(text: string): Rational {
  const match = QUANTITY.exec(text.trim());
  if (match === null || text.trim() === '') {
    throw new QuantityError(`quantity "${text}" is not a valid Kubernetes quantity`);
  }
  const [, sign = '', digits = '', binary, decimal, exponent] = match;
  const [whole = '', fraction = ''] = digits.split('.');
  let numerator = BigInt(`${whole || '0'}${fraction}`);
  let denominator = 10n ** BigInt(fraction.length);
  if (sign === '-') numerator = -numerator;
  if (binary !== undefined) numerator *= BINARY[binary] ?? 1n;
  const power = decimal !== undefined ? (DECIMAL_EXPONENT[decimal] ?? 0) : Number(exponent ?? 0);
  if (Math.abs(power) > 30) throw new QuantityError(`quantity "${text}" is out of range`);
  if (power >= 0) numerator *= 10n ** BigInt(power);
  else denominator *= 10n ** BigInt(-power);
  return { numerator, denominator };
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}

function toSafeNumber(value: bigint, text: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new QuantityError(`quantity "${text}" is out of range`);
  }
  return Number(value);
}

/** The quantity in thousandths (millicores for CPU), rounded up. */
export function parseMillis(text: string | number): number {
  const { numerator, denominator } = toRational(String(text));
  return toSafeNumber(ceilDiv(numerator * 1000n, denominator), String(text));
}

/** The quantity in whole units (bytes, pods, devices), rounded up. */
export function parseUnits(text: string | number): number {
  const { numerator, denominator } = toRational(String(text));
  return toSafeNumber(ceilDiv(numerator, denominator), String(text));
}

/** Whether the text is a well-formed quantity. */
export function isQuantity(text: string): boolean {
  return QUANTITY.test(text.trim()) && text.trim() !== '';
}
