/**
 * The one-writer lease as a single item in the state table. Acquisition is one conditional
 * UpdateItem that sets the holder and adds one to the fencing token atomically, so of any number
 * of racing takers exactly one succeeds and tokens never repeat; a taker that meets the holder's
 * write in progress on the item finds it held. The item has no TTL attribute: it must never be
 * deleted, or the token would start again from 1.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expiresAt } from '../../domain/state/expiry.ts';
import { isHeldBy, type LeaseGrant } from '../../domain/state/lease.ts';
import { ConflictError } from '../../ports/errors.ts';
import type { LeaseStore } from '../../ports/state-store.ts';
import { isLeaseFreeFor, isLeaseHeldBy } from './conditions.ts';
import { isConditionFailure, isTransactionInProgress, toPortError } from './errors.ts';
import { LEASE_KEY, StateAttribute } from './keys.ts';
import { NEVER_ACQUIRED, toLease, toLeaseGrant } from './mappers.ts';
import type { DocumentClient } from './pages.ts';

export class DynamoDbLeaseStore implements LeaseStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async acquire(holder: string, now: Date, ttlSeconds: number): Promise<LeaseGrant | undefined> {
    const condition = isLeaseFreeFor(holder, now);
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: LEASE_KEY,
          // The acquisition before this one moves aside, read before the item is changed.
          UpdateExpression:
            'SET #holder = :holder, #expiresAt = :expiresAt, #previous = if_not_exists(#acquiredAt, :never), #acquiredAt = :acquiredAt ADD #token :one',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: {
            ...condition.ExpressionAttributeNames,
            '#token': StateAttribute.fencingToken,
            '#acquiredAt': StateAttribute.acquiredAt,
            '#previous': StateAttribute.previousAcquiredAt,
          },
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':expiresAt': expiresAt(now, ttlSeconds),
            ':acquiredAt': now.toISOString(),
            ':never': NEVER_ACQUIRED,
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toLeaseGrant(Attributes ?? {});
    } catch (err) {
      // A write of the holder's is in progress on the item (every fenced claim write checks it):
      // DynamoDB refuses the update with TransactionConflictException. The lease is in use.
      if (isConditionFailure(err) || isTransactionInProgress(err)) return undefined;
      throw toPortError(err, `acquiring lease for ${holder}`);
    }
  }

  async renew(grant: LeaseGrant, now: Date, ttlSeconds: number): Promise<LeaseGrant> {
    const condition = isLeaseHeldBy(grant);
    const doing = `renewing lease ${grant.fencingToken} for ${grant.holder}`;
    const renewed = { ...grant, expiresAt: expiresAt(now, ttlSeconds) };
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: LEASE_KEY,
          UpdateExpression: 'SET #expiresAt = :expiresAt',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: {
            ...condition.ExpressionAttributeNames,
            '#expiresAt': StateAttribute.expiresAt,
          },
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':expiresAt': renewed.expiresAt,
          },
        }),
      );
    } catch (err) {
      if (isConditionFailure(err)) {
        throw new ConflictError(`${doing}: it was released or taken since`, { cause: err });
      }
      throw toPortError(err, doing);
    }
    return renewed;
  }

  async isHeld(grant: LeaseGrant, now: Date): Promise<boolean> {
    try {
      const { Item } = await this.#client.send(
        new GetCommand({ TableName: this.#tableName, Key: LEASE_KEY, ConsistentRead: true }),
      );
      return isHeldBy(Item === undefined ? undefined : toLease(Item), grant, now);
    } catch (err) {
      throw toPortError(err, `checking lease ${grant.fencingToken} for ${grant.holder}`);
    }
  }

  async release(grant: LeaseGrant): Promise<void> {
    const condition = isLeaseHeldBy(grant);
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: LEASE_KEY,
          // The token stays: the next acquisition must still count up from it.
          UpdateExpression: 'REMOVE #holder, #expiresAt',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: {
            ...condition.ExpressionAttributeNames,
            '#expiresAt': StateAttribute.expiresAt,
          },
          ExpressionAttributeValues: condition.ExpressionAttributeValues,
        }),
      );
    } catch (err) {
      if (isConditionFailure(err)) return;
      throw toPortError(err, `releasing lease ${grant.fencingToken} for ${grant.holder}`);
    }
  }
}
