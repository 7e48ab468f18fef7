/**
 * core/v1 Taint as Karpenter's CRDs restrict it, and the rule that a key/effect pair appears
 * once across `taints` and `startupTaints` (core: nodeclaim_validation.go `validateTaints`).
 */
import * as z from 'zod';
import { describeValue } from '../issue-messages.ts';
import { qualifiedName, timestamp } from './fields.ts';
import { isQualifiedName } from './formats.ts';

/** An empty value means "no value", as Karpenter's runtime validation reads it. */
const taintValue = z.string().refine((text) => text === '' || isQualifiedName(text), {
  error: (iss) => `${describeValue(iss.input)} is not a valid taint value (a qualified name)`,
});

export const taint = z.strictObject({
  key: qualifiedName,
  value: taintValue.optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  timeAdded: timestamp.optional(),
});
type Taint = z.output<typeof taint>;

export const taints = z.array(taint);

interface TaintLists {
  readonly taints?: readonly Taint[] | undefined;
  readonly startupTaints?: readonly Taint[] | undefined;
}

/** Reports every taint whose key and effect already appeared earlier in either list. */
export function checkDuplicateTaints(spec: TaintLists, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const field of ['taints', 'startupTaints'] as const) {
    (spec[field] ?? []).forEach((entry, index) => {
      const pair = `${entry.key}:${entry.effect}`;
      if (seen.has(pair)) {
        ctx.addIssue({
          code: 'custom',
          message: `duplicate taint key/effect pair ${pair}; each pair may appear once across taints and startupTaints`,
          path: [field, index],
        });
      }
      seen.add(pair);
    });
  }
}
