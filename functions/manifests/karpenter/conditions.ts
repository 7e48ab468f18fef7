/**
 * Status conditions (metav1.Condition, as Karpenter's operatorpkg writes them). Karpenter owns
 * status, so fields beyond the known ones are carried rather than rejected; `reason` and
 * `message` are optional because the Karpenter docs' own examples leave them out.
 */
import * as z from 'zod';
import { nonNegativeInt, timestamp } from './fields.ts';

export const condition = z.looseObject({
  type: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: timestamp.optional(),
  observedGeneration: nonNegativeInt.optional(),
});

export const conditions = z.array(condition);
