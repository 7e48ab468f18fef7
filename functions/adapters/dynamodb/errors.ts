/**
 * DynamoDB failures sorted into port errors at the edge (docs/design.md §2.3), always keeping the
 * SDK error as `cause`. A failed condition means another writer won (ConflictError); throttling
 * that outlasted the SDK's own retries becomes ThrottledError; anything else is rethrown unchanged.
 */
import { ConflictError, ThrottledError } from '../../ports/errors.ts';

const CONFLICT = new Set(['ConditionalCheckFailedException', 'TransactionConflictException']);
const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);
/** Codes inside a TransactionCanceledException's CancellationReasons. */
const CONFLICT_REASONS = new Set(['ConditionalCheckFailed', 'TransactionConflict']);
const THROTTLED_REASONS = new Set([
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

export interface CancellationReason {
  readonly Code?: string;
  readonly Message?: string;
  readonly Item?: unknown;
}

function errorName(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('name' in err)) return undefined;
  return typeof err.name === 'string' ? err.name : undefined;
}

/** The reason DynamoDB gives for each part of a cancelled transaction, in order; none else. */
export function cancellationReasons(err: unknown): readonly CancellationReason[] {
  if (errorName(err) !== 'TransactionCanceledException') return [];
  const reasons = (err as { CancellationReasons?: unknown }).CancellationReasons;
  return Array.isArray(reasons) ? (reasons as CancellationReason[]) : [];
}

/** The port error `err` stands for, or `err` itself when it is none of them. */
export function toPortError(err: unknown, doing: string): unknown {
  const name = errorName(err);
  const codes = cancellationReasons(err).map((reason) => reason.Code ?? 'None');
  const detail = codes.length > 0 ? `${name} [${codes.join(', ')}]` : name;
  if (
    (name !== undefined && CONFLICT.has(name)) ||
    codes.some((code) => CONFLICT_REASONS.has(code))
  ) {
    return new ConflictError(`${doing}: another writer won (${detail})`, { cause: err });
  }
  if (
    (name !== undefined && THROTTLED.has(name)) ||
    codes.some((code) => THROTTLED_REASONS.has(code))
  ) {
    return new ThrottledError(`${doing}: throttled (${detail})`, { cause: err });
  }
  return err;
}

/** Whether `err` is a single write's failed condition. */
export function isConditionFailure(err: unknown): boolean {
  return errorName(err) === 'ConditionalCheckFailedException';
}

/**
 * Whether DynamoDB refused a single-item write because a transaction was in progress on the
 * item (TransactionConflictException): nothing was written.
 */
export function isTransactionInProgress(err: unknown): boolean {
  return errorName(err) === 'TransactionConflictException';
}

/**
 * Whether a condition failed because the item is not there at all: the write asked for
 * `ReturnValuesOnConditionCheckFailure: ALL_OLD` and got no old item back. `index` picks the
 * write inside a transaction.
 */
export function isMissingItemFailure(err: unknown, index?: number): boolean {
  if (index === undefined) {
    return isConditionFailure(err) && (err as { Item?: unknown }).Item === undefined;
  }
  const reason = cancellationReasons(err)[index];
  return reason?.Code === 'ConditionalCheckFailed' && reason.Item === undefined;
}

/** Whether the write at `index` of a cancelled transaction failed its condition. */
export function failedAt(err: unknown, index: number): boolean {
  return cancellationReasons(err)[index]?.Code === 'ConditionalCheckFailed';
}

/**
 * Whether a transaction was cancelled only because another transaction held one of its items at
 * that moment: nothing was written and no condition failed, so the same write may be sent again.
 */
export function isTransientTransactionConflict(err: unknown): boolean {
  const codes = cancellationReasons(err).map((reason) => reason.Code ?? 'None');
  return (
    codes.includes('TransactionConflict') &&
    codes.every((code) => code === 'None' || code === 'TransactionConflict')
  );
}
