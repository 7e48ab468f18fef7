/**
 * The closed set of errors a port may reject with (docs/design.md §2.4). Adapters translate their
 * SDK's failures into these at the edge and keep the original as `cause`; callers branch on the
 * class or on `code`, never on the message. Messages read "doing x: detail", in lowercase.
 */
import type { OfferingKey } from '../domain/state/unavailable-offering.ts';

/**
 * The base of each port error: `code` is what callers branch on, and the error is named after it
 * (`NotFound` → `NotFoundError`), so logs and stack traces name the class.
 */
function portError<const TCode extends string>(code: TCode) {
  return class extends Error {
    override readonly name: `${TCode}Error` = `${code}Error`;
    readonly code: TCode = code;
  };
}

/** No requested offering could be filled; `offerings` lists each one that failed. */
export class InsufficientCapacityError extends portError('InsufficientCapacity') {
  readonly offerings: readonly OfferingKey[];

  constructor(message: string, offerings: readonly OfferingKey[], options?: ErrorOptions) {
    super(message, options);
    this.offerings = offerings;
  }
}

/** The thing addressed does not exist (or no longer does). */
export class NotFoundError extends portError('NotFound') {}

/** Another writer won: a create found the record, a version or fencing token was stale. */
export class ConflictError extends portError('Conflict') {}

/**
 * A Conflict error for a create whose name is already taken, rather than a stale version or
 * fence: a caller that chose the name may choose another. Callers branching on Conflict still
 * see it as one.
 */
export class NameTakenError extends ConflictError {}

/** The backing service refused for rate or capacity; retrying later may succeed. */
export class ThrottledError extends portError('Throttled') {}

/** The configuration (a NodePool, an EC2NodeClass, a setting) cannot be acted on as given. */
export class InvalidConfigError extends portError('InvalidConfig') {}

/**
 * An InvalidConfig error whose cause is an EC2NodeClass that cannot be resolved or found now:
 * Karpenter's NodeClassNotReadyError (core: cloudprovider/types.go). Callers branching on
 * InvalidConfig still see it as one.
 */
export class NodeClassNotReadyError extends InvalidConfigError {}

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
