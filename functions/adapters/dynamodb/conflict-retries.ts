/**
 * How a claim write that another writer's transaction cancelled is sent again (docs/state.md,
 * "Fencing"): nothing was written, and the other holds the item for milliseconds, so a few
 * jittered tries get through; a conflict that outlasts them is reported as one (ConflictError).
 */
import { isTransientTransactionConflict } from './errors.ts';

/** Sends of a write that other writers' transactions keep cancelling. */
export const CONFLICT_ATTEMPTS = 6;
/** The first wait before sending again; it doubles with each try, jittered. */
const CONFLICT_BACKOFF_MS = 10;

/** The wait after the `conflicts`-th cancellation: full jitter over 10 ms × 2ⁿ. */
export function backOff(conflicts: number): Promise<void> {
  const ms = Math.random() * CONFLICT_BACKOFF_MS * 2 ** conflicts;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends until a send is not cancelled by another writer's transaction, or the tries run out. */
export async function sentAgainOnConflict(send: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return;
    } catch (err) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransientTransactionConflict(err)) throw err;
      await backOff(attempt);
    }
  }
}
