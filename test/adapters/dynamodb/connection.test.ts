import { DynamoDBServiceException, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { accessFailure } from '../../../functions/adapters/dynamodb/connection.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';

const metadata = { $metadata: {} };

/** An AWS error DynamoDB's model does not name, as the SDK builds it from the error code. */
function serviceError(name: string): DynamoDBServiceException {
  return new DynamoDBServiceException({ name, $fault: 'client', message: 'x', ...metadata });
}

/** A credential provider's failure: only its name is part of the SDK's contract. */
function namedError(name: string): Error {
  const err = new Error('x');
  err.name = name;
  return err;
}

/** A socket failure as Node reports it, with the code on the error. */
function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
}

describe('DynamoDB access failures', () => {
  it.each([
    ['missing-table', new ResourceNotFoundException({ message: 'x', ...metadata })],
    ['no-credentials', namedError('CredentialsProviderError')],
    ['credentials-refused', serviceError('UnrecognizedClientException')],
    ['credentials-refused', serviceError('ExpiredTokenException')],
    ['access-denied', serviceError('AccessDeniedException')],
    ['unreachable', socketError('ECONNREFUSED')],
    ['unreachable', socketError('ENOTFOUND')],
  ])('sorts out %s', (kind, err) => {
    expect(accessFailure(err)?.kind).toBe(kind);
  });

  it('names the error code the failure was recognised by', () => {
    expect(accessFailure(serviceError('AccessDeniedException'))?.code).toBe(
      'AccessDeniedException',
    );
    expect(accessFailure(socketError('ECONNREFUSED'))?.code).toBe('ECONNREFUSED');
  });

  it('leaves every other failure alone', () => {
    expect(accessFailure(new ThrottledError('listing node pools: throttled'))).toBeUndefined();
    expect(accessFailure(serviceError('InternalServerError'))).toBeUndefined();
    expect(accessFailure(new Error('socket hang up'))).toBeUndefined();
    expect(accessFailure('not an error')).toBeUndefined();
  });
});
