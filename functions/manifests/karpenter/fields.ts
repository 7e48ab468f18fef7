/** Field schemas shared by the Karpenter documents: patterned strings, quantities, maps. */
import * as z from 'zod';
import { parseUnits, QuantityError } from '../../domain/quantity.ts';
import { describeValue } from '../issue-messages.ts';
import {
  DURATION,
  DURATION_OR_NEVER,
  isDnsSubdomain,
  isLabelValue,
  isQualifiedName,
  TIMESTAMP,
} from './formats.ts';

/** A string that must pass `test`; the message reads `"1d" is not <what>`. */
export function formatted(test: (text: string) => boolean, what: string) {
  return z.string().refine(test, { error: (iss) => `${describeValue(iss.input)} is not ${what}` });
}

export function patterned(pattern: RegExp, what: string) {
  return formatted((text) => pattern.test(text), what);
}

/** Required and not blank, as Karpenter's `self != ''` rules demand. */
export function nonEmpty(field: string) {
  return z.string().refine((text) => text !== '', { error: `${field} may not be empty` });
}

export const duration = patterned(DURATION, 'a duration such as 90s, 30m, 48h or 1h30m');
export const durationOrNever = patterned(
  DURATION_OR_NEVER,
  'a duration such as 720h or 1h30m, or Never',
);
export const timestamp = patterned(TIMESTAMP, 'an RFC 3339 time such as 2024-08-07T15:19:49Z');
export const qualifiedName = formatted(
  isQualifiedName,
  'a qualified name such as example.com/name (alphanumerics, "-", "_" and "." up to 63 characters, optional DNS prefix)',
);
export const labelValue = formatted(
  isLabelValue,
  'a label value (up to 63 alphanumerics, "-", "_" or ".", starting and ending with an alphanumeric)',
);
export const dnsSubdomain = formatted(
  isDnsSubdomain,
  'a lowercase DNS-1123 name (a-z, 0-9, "-" and ".", up to 253 characters)',
);

/**
 * A resource quantity as a ResourceList holds it: an integer (any size: the API server caps it at
 * 2^63-1) or a string such as `500m`. A malformed or out-of-range one is named with its reason.
 */
export const quantity = z
  .union([z.number(), z.string()], {
    error: (iss) =>
      `must be an integer or a quantity such as 500m, 2Gi or 1.5, got ${describeValue(iss.input)}`,
  })
  .superRefine((value, ctx) => {
    const problem = quantityProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

function quantityProblem(value: string | number): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
    return `must be an integer or a quantity such as 500m, 2Gi or 1.5, got ${describeValue(value)}`;
  }
  try {
    parseUnits(value);
    return undefined;
  } catch (error) {
    if (!(error instanceof QuantityError)) throw error;
    return error.problem === 'range'
      ? error.message
      : `${describeValue(value)} is not a quantity such as 500m, 2Gi or 1.5`;
  }
}

export const resourceList = z.record(z.string(), quantity);
export const stringMap = z.record(z.string(), z.string());
export const nonNegativeInt = z.int().min(0);
