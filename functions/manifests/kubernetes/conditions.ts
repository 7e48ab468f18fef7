/** Status conditions (`{type, status, reason}`), as Pods and Nodes report them. */
import { z } from 'zod';
import { listOrEmpty, optional, text } from './schema.ts';

export const conditions = listOrEmpty(
  z.object({ type: text, status: text, reason: optional(text) }),
);

export type Condition = z.output<typeof conditions>[number];
