import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  failedAt,
  isConditionFailure,
  isMissingItemFailure,
  toPortError,
} from '../../../functions/adapters/dynamodb/errors.ts';
import { ConflictError, ThrottledError } from '../../../functions/ports/errors.ts';

const metadata = { $metadata: {} };

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    ...metadata,
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

describe('DynamoDB error classification', () => {
  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ message: 'x', ...metadata })],
    ['a failed condition in a transaction', cancelled('None', 'ConditionalCheckFailed')],
    ['a transaction conflict', new TransactionConflictException({ message: 'x', ...metadata })],
    ['a conflicting transaction', cancelled('TransactionConflict', 'None')],
  ])('turns %s into ConflictError, keeping the cause', (_, err) => {
    const mapped = toPortError(err, 'creating node claim a');
    expect(mapped).toBeInstanceOf(ConflictError);
    expect((mapped as ConflictError).cause).toBe(err);
    expect((mapped as ConflictError).message).toMatch(/^creating node claim a: /);
  });

  it.each([
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'x', ...metadata }),
    ],
    ['ThrottlingException', new ThrottlingException({ message: 'x', ...metadata })],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'x', ...metadata })],
    ['a throttled transaction', cancelled('ThrottlingError', 'None')],
  ])('turns %s into ThrottledError, keeping the cause', (_, err) => {
    const mapped = toPortError(err, 'listing node claims');
    expect(mapped).toBeInstanceOf(ThrottledError);
    expect((mapped as ThrottledError).cause).toBe(err);
  });

  it('passes any other error through unchanged', () => {
    const err = new Error('socket hang up');
    expect(toPortError(err, 'listing node claims')).toBe(err);
    expect(toPortError('not an error', 'listing node claims')).toBe('not an error');
  });
});

describe('DynamoDB condition failures', () => {
  it('tells a condition that failed on a missing item from one that failed on another version', () => {
    const missing = new ConditionalCheckFailedException({ message: 'x', ...metadata });
    const present = new ConditionalCheckFailedException({
      message: 'x',
      ...metadata,
      Item: { name: { S: 'a' } },
    });
    const missingInTransaction = cancelled('None', 'ConditionalCheckFailed');
    expect(isMissingItemFailure(missing)).toBe(true);
    expect(isMissingItemFailure(present)).toBe(false);
    expect(isMissingItemFailure(missingInTransaction, 1)).toBe(true);
    expect(isMissingItemFailure(missingInTransaction, 0)).toBe(false);
    expect(isConditionFailure(missingInTransaction)).toBe(false);
    expect(failedAt(missingInTransaction, 1)).toBe(true);
  });
});
