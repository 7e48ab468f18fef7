/**
 * A DynamoDB client for callers outside a Lambda function (the CLI's `plan --state-table`), and
 * the failures that mean "this table cannot be reached as configured" rather than a fault in the
 * store: the caller turns them into one line telling the user what to fix. The SDK's default
 * credential chain and its `AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL` handling apply, which
 * is also how tests point it at DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './pages.ts';

export interface DynamoDbConnection {
  readonly client: DocumentClient;
  /** Closes the underlying sockets (the document client's own `destroy` does nothing). */
  close(): void;
}

export function openDynamoDb(options: { readonly region: string }): DynamoDbConnection {
  const base = new DynamoDBClient({ region: options.region });
  return { client: DynamoDBDocumentClient.from(base), close: () => base.destroy() };
}

/** Why a table could not be reached; every kind is something the user fixes, not a retry. */
export type AccessFailureKind =
  | 'missing-table'
  | 'no-credentials'
  | 'credentials-refused'
  | 'access-denied'
  | 'unreachable';

export interface AccessFailure {
  readonly kind: AccessFailureKind;
  /** The SDK's error name or the socket error code, for the message. */
  readonly code: string;
}

const KINDS: ReadonlyMap<string, AccessFailureKind> = new Map([
  ['ResourceNotFoundException', 'missing-table'],
  ['CredentialsProviderError', 'no-credentials'],
  ['UnrecognizedClientException', 'credentials-refused'],
  ['InvalidSignatureException', 'credentials-refused'],
  ['ExpiredTokenException', 'credentials-refused'],
  ['MissingAuthenticationTokenException', 'credentials-refused'],
  ['AccessDeniedException', 'access-denied'],
  ['ECONNREFUSED', 'unreachable'],
  ['ENOTFOUND', 'unreachable'],
  ['EAI_AGAIN', 'unreachable'],
  ['ETIMEDOUT', 'unreachable'],
  ['EHOSTUNREACH', 'unreachable'],
]);

/** The access failure `err` is, or undefined when it is something else. */
export function accessFailure(err: unknown): AccessFailure | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { name, code } = err as { name?: unknown; code?: unknown };
  for (const candidate of [name, code]) {
    if (typeof candidate !== 'string') continue;
    const kind = KINDS.get(candidate);
    if (kind !== undefined) return { kind, code: candidate };
  }
  return undefined;
}
