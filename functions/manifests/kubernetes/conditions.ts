/** Status conditions (`{type, status, reason, lastTransitionTime}`), as Pods and Nodes report them. */
import * as z from 'zod';
import { listOrEmpty, optional, text, timestamp } from './schema.ts';

export const conditions = listOrEmpty(
  z.object({
    type: text,
    status: text,
    reason: optional(text),
    lastTransitionTime: optional(timestamp),
  }),
);

export type Condition = z.output<typeof conditions>[number];
