/**
 * The admission wake's token: kube-apiserver cannot sign webhook calls on EKS, so the route's
 * last path segment carries an unguessable token (docs/design.md §8.4). The secret holds it as
 * `{"token": "…"}`, and during a rotation also the one it replaces, `"previousToken"`, so the
 * webhook configuration can move to the new URL while calls to the old one still count.
 */
import * as z from 'zod';
import { sameSecret } from './constant-time.ts';

export interface WakeTokens {
  readonly current: string;
  /** Still accepted until the rotation ends and the secret drops it. */
  readonly previous?: string;
}

/** Path-safe and long enough not to be guessed: the stack generates 48 letters and digits. */
const token = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,}$/, 'must be at least 32 letters, digits, - or _');

const secretSchema = z.object({ token, previousToken: token.optional() });

/** The secret's value; throws naming what is wrong, since no call can be checked without it. */
export function readWakeTokens(secretString: string): WakeTokens {
  let json: unknown;
  try {
    json = JSON.parse(secretString);
  } catch {
    throw new Error('reading the wake token secret: it is not JSON');
  }
  const parsed = secretSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`reading the wake token secret: ${issue?.path.join('.')} ${issue?.message}`);
  }
  const { token: current, previousToken: previous } = parsed.data;
  return { current, ...(previous === undefined ? {} : { previous }) };
}

/** Whether the path's token is the current or the previous one; both are always compared. */
export function pathTokenMatches(presented: string | undefined, tokens: WakeTokens): boolean {
  const current = sameSecret(presented ?? '', tokens.current);
  const previous = sameSecret(presented ?? '', tokens.previous ?? '');
  return current || previous;
}
