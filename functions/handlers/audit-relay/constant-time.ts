/**
 * Secrets compared in constant time, on SHA-256 digests, so that neither the length nor the
 * content of the expected value leaks through timing (docs/design.md §8.4).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether `presented` is `expected`; an empty expected value matches nothing. */
export function sameSecret(presented: string, expected: string): boolean {
  const equal = timingSafeEqual(digest(presented), digest(expected));
  return expected.length > 0 && equal;
}
