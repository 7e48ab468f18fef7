/**
 * The closed set of errors a port may reject with (docs/design.md §2.4). Adapters translate their
 * SDK's failures into these at the edge and keep the original as `cause`; callers branch on the
 * class or on `code`, never on the message. Messages read "doing x: detail", in lowercase.
 */
import type { OfferingKey } from '../domain/state/unavailable-offering.ts';

/** No requested offering could be filled; `offerings` lists each one that failed. */
export class InsufficientCapacityError extends Error {
  override readonly name = 'InsufficientCapacityError';
  readonly code = 'InsufficientCapacity';
  readonly offerings: readonly OfferingKey[];

  constructor(message: string, offerings: readonly OfferingKey[], options?: ErrorOptions) {
    super(message, options);
    this.offerings = offerings;
  }
}

/** The thing addressed does not exist (or no longer does). */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
  readonly code = 'NotFound';
}

/** Another writer won: a create found the record, a version or fencing token was stale. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  readonly code = 'Conflict';
}

/** The backing service refused for rate or capacity; retrying later may succeed. */
export class ThrottledError extends Error {
  override readonly name = 'ThrottledError';
  readonly code = 'Throttled';
}

/** The configuration (a NodePool, an EC2NodeClass, a setting) cannot be acted on as given. */
export class InvalidConfigError extends Error {
  override readonly name = 'InvalidConfigError';
  readonly code = 'InvalidConfig';
}

export type PortError =
  | InsufficientCapacityError
  | NotFoundError
  | ConflictError
  | ThrottledError
  | InvalidConfigError;

export type PortErrorCode = PortError['code'];

export function isPortError(err: unknown): err is PortError {
  return (
    err instanceof InsufficientCapacityError ||
    err instanceof NotFoundError ||
    err instanceof ConflictError ||
    err instanceof ThrottledError ||
    err instanceof InvalidConfigError
  );
}
