/**
 * The one source of time for use-cases and adapters: the wall clock in Lambda, simulated time
 * in `nodesmith simulate` and in tests. The domain never reads it; use-cases pass `now` in.
 */
export interface Clock {
  now(): Date;
}
