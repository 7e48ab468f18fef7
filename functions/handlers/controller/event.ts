/**
 * What wakes the controller: SQS messages on the work queue, each a wake from the audit relay,
 * the interruption function, the scheduled tick or the controller itself. EventBridge Scheduler
 * delivers its tick as a message of its own; anything that is not a wake cannot be processed
 * and is left for the queue's redrive policy to put in the dead-letter queue, unchanged.
 */
import * as z from 'zod';

export const wakeMessage = z.object({
  source: z.enum(['admission', 'audit', 'interruption', 'schedule', 'api', 'controller']),
  reason: z.string(),
});

export type WakeMessage = z.output<typeof wakeMessage>;

/**
 * One record body at a time, not SqsEnvelope: a bad record must fail alone (Powertools batch).
 * Powertools' JSONStringified, written out: its module imports zod's `z` namespace, which
 * brings every locale of zod into the bundle (aws-lambda-powertools-typescript,
 * packages/parser/src/helpers/index.ts).
 */
const wakeBody = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `Invalid JSON - ${(err as Error).message}`,
        continue: false,
      });
      return z.NEVER;
    }
  })
  .pipe(wakeMessage);

/** The message body as a wake, or an error naming what is wrong with it. */
export function parseWake(body: string): WakeMessage {
  const parsed = wakeBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`reading wake message: ${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  return parsed.data;
}
