/** A clock a test moves by hand, for the adapters that are given `now`, and units to move it by. */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

export function aClock(start = '2024-08-10T09:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: (): Date => new Date(current),
    advance(ms: number): void {
      current += ms;
    },
  };
}
