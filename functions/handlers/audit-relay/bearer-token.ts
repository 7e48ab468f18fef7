/** The audit webhook's bearer token check (docs/design.md §8.4), in constant time. */
import { sameSecret } from './constant-time.ts';

/** Whether `Authorization: Bearer <token>` carries the expected token. */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const equal = sameSecret(match?.[1] ?? '', expected);
  return match !== null && equal;
}
