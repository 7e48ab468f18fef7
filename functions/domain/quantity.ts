/**
 * Kubernetes resource quantities (`100m`, `1.5`, `512Mi`, `1G`, `1e3`) parsed exactly, over the
 * API server's whole range.
 *
 * As apimachinery's resource.Quantity documents and does (pkg/api/resource/quantity.go): no
 * quantity represents a number greater than 2^63−1 in magnitude — larger ones are capped there —
 * and amounts finer than the unit are rounded up, away from zero (`Value`, `MilliValue`). The
 * exponent of `1e3` must fit an int32, as its parser reads it; only that, or a malformed text, is
 * an error. CPU in millicores is the capped quantity times 1000, capped again at 2^63−1.
 *
 * Two representations, for two uses: `bigint` (`parseUnitsExact`, `parseMillisExact`) where sums
 * can pass 2^53 and must stay exact (NodePool limits and what is left of them); `number`
 * (`parseUnits`, `parseMillis`) for what one pod asks and one instance type has, which is exact
 * up to 2^53 bytes (8 PiB) and the nearest double beyond: no pod or instance comes close, and
 * the scheduler's hot path keeps plain arithmetic.
 */

const QUANTITY =
  /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

/** The largest magnitude a quantity may have, in its unit. */
export const MAX_QUANTITY = 2n ** 63n - 1n;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const BINARY_SHIFT: Readonly<Record<string, bigint>> = {
  Ki: 10n,
  Mi: 20n,
  Gi: 30n,
  Ti: 40n,
  Pi: 50n,
  Ei: 60n,
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

/** Thrown for a text that is not a Kubernetes quantity; the message names the value. */
export class QuantityError extends Error {
  override readonly name = 'QuantityError';

  constructor(
    message: string,
    /** `malformed`: not a quantity's text at all; `range`: well formed, but beyond what is accepted. */
    readonly problem: 'malformed' | 'range',
  ) {
    super(message);
  }
}

/** mantissa × 2^shift × 10^exponent, the mantissa a whole number. */
interface Parts {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly digits: number;
  readonly shift: bigint;
  readonly exponent: number;
}

function toParts(text: string): Parts {
  const match = QUANTITY.exec(text.trim());
  if (match === null) {
    throw new QuantityError(`quantity "${text}" is not a valid Kubernetes quantity`, 'malformed');
  }
  const [, sign = '', number = '', binary, decimal, written] = match;
  const [whole = '', fraction = ''] = number.split('.');
  const power = decimal !== undefined ? (DECIMAL_EXPONENT[decimal] ?? 0) : Number(written ?? 0);
  if (!Number.isSafeInteger(power) || power < INT32_MIN || power > INT32_MAX) {
    throw new QuantityError(
      `quantity "${text}" is out of range: its exponent must fit 32 bits`,
      'range',
    );
  }
  const significant = `${whole}${fraction}`.replace(/^0+/, '');
  return {
    negative: sign === '-',
    mantissa: BigInt(significant || '0'),
    digits: significant.length,
    shift: binary === undefined ? 0n : (BINARY_SHIFT[binary] ?? 0n),
    exponent: power - fraction.length,
  };
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}

/** The magnitude in units of 10^-scale, rounded up and capped; `exponent` stays modest here. */
function magnitude(parts: Parts, scale: number): bigint {
  // At most 19 significant digits after the point fit below the cap; an exponent beyond these
  // bounds is capped (or rounded up to one) without building a huge power of ten.
  const exponent = parts.exponent + scale;
  if (parts.digits + exponent > 40) return MAX_QUANTITY;
  if (parts.digits + exponent < -40) return 1n;
  const scaled = parts.mantissa << parts.shift;
  const value =
    exponent >= 0 ? scaled * 10n ** BigInt(exponent) : ceilDiv(scaled, 10n ** BigInt(-exponent));
  return value > MAX_QUANTITY ? MAX_QUANTITY : value;
}

function exact(text: string | number, scale: number): bigint {
  // YAML reads `1e999` unquoted as a float, which overflows to Infinity before it gets here.
  if (typeof text === 'number' && !Number.isFinite(text)) {
    throw new QuantityError(`quantity ${text} is out of range`, 'range');
  }
  const parts = toParts(String(text));
  if (parts.mantissa === 0n) return 0n;
  // The quantity itself is capped before it is scaled, as the API server stores it.
  const capped =
    scale > 0 && parts.digits + parts.exponent > 18 && magnitude(parts, 0) === MAX_QUANTITY;
  const amount = capped ? MAX_QUANTITY : magnitude(parts, scale);
  return parts.negative ? -amount : amount;
}

/** The quantity in millionths (micro-dollars for the hourly-cost limit), rounded up and capped. */
export function parseMicrosExact(text: string | number): bigint {
  return exact(text, 6);
}

/** The quantity in whole units (bytes, pods, devices), rounded up away from zero and capped. */
export function parseUnitsExact(text: string | number): bigint {
  return exact(text, 0);
}

/** The quantity in thousandths (millicores for CPU), rounded up away from zero and capped. */
export function parseMillisExact(text: string | number): bigint {
  return exact(text, 3);
}

/** `parseUnitsExact` as a number: exact up to 2^53. */
export function parseUnits(text: string | number): number {
  return Number(parseUnitsExact(text));
}

/** `parseMillisExact` as a number: exact up to 2^53. */
export function parseMillis(text: string | number): number {
  return Number(parseMillisExact(text));
}

/** Whether the text is a quantity the API server accepts. */
export function isQuantity(text: string): boolean {
  try {
    toParts(text);
    return true;
  } catch {
    return false;
  }
}
