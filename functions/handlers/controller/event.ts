/**
 * What wakes the controller: SQS messages on the work queue, each a wake from the audit relay,
 * the interruption function, the scheduled tick or the controller itself. EventBridge Scheduler
 * delivers its tick as a message of its own; anything that is not a wake cannot be processed
 * and is left for the queue's redrive policy to put in the dead-letter queue, unchanged.
 */
import { z } from 'zod';

export const wakeMessage = z.object({
  source: z.enum(['audit', 'interruption', 'schedule', 'api', 'controller']),
  reason: z.string(),
});

export type WakeMessage = z.output<typeof wakeMessage>;

/** The message body as a wake, or an error naming what is wrong with it. */
export function parseWake(body: string): WakeMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error('reading wake message: body is not JSON');
  }
  const parsed = wakeMessage.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`reading wake message: ${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  return parsed.data;
}
