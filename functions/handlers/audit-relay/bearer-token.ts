/**
 * The webhook's bearer token check (docs/design.md §8.4): compared in constant time, on SHA-256
 * digests so that neither the length nor the content of the expected token leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether `Authorization: Bearer <token>` carries the expected token. */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const presented = match?.[1] ?? '';
  const equal = timingSafeEqual(digest(presented), digest(expected));
  return match !== null && expected.length > 0 && equal;
}
