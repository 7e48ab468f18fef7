/** Node taints and pod tolerations. */
import * as z from 'zod';
import type { Taint, TaintEffect, Toleration } from '../../domain/taints.ts';
import { defined, integer, oneOf, optional, text } from './schema.ts';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const satisfies TaintEffect[];

export const taint = z
  .object({ key: text, value: optional(text), effect: oneOf(EFFECTS) })
  .transform((t): Taint => defined(t));

/** An empty effect or operator in a toleration is the API's way of leaving it unset (all effects, Equal). */
function unlessEmpty<const T extends readonly [string, ...string[]]>(values: T) {
  return optional(z.enum(['', ...values])).transform((value) =>
    value === '' ? undefined : (value as T[number] | undefined),
  );
}

export const toleration = z
  .object({
    key: optional(text),
    operator: unlessEmpty(['Exists', 'Equal']),
    value: optional(text),
    effect: unlessEmpty(EFFECTS),
    tolerationSeconds: optional(integer),
  })
  .transform((t): Toleration => defined(t));
