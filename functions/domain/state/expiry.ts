/**
 * Expiry of stored records (unavailable offerings, the lease, events seen). Times are ISO-8601
 * strings as `Date.toISOString` writes them: fixed width and UTC, so comparing the strings
 * compares the instants, in memory and in a DynamoDB condition alike. `now` is always passed in.
 */

/** The instant `ttlSeconds` after `now`. */
export function expiresAt(now: Date, ttlSeconds: number): string {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new Error(`computing expiry: ttlSeconds must be a positive number, got ${ttlSeconds}`);
  }
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString();
}

/** Whether a record expiring at `expiry` still counts at `now` (it lapses at that very instant). */
export function isLive(expiry: string, now: Date): boolean {
  return expiry > now.toISOString();
}
