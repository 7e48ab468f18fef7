/**
 * Idempotency keys in the state table, one partition each. Recording is a single conditional
 * PutItem: of racing duplicates exactly one passes the condition. A key kept past its expiry
 * (TTL deletes lazily) is overwritten as if it were new.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expiresAt } from '../../domain/state/expiry.ts';
import type { EventsSeenStore } from '../../ports/state-store.ts';
import { isNewOrExpired } from './conditions.ts';
import { isConditionFailure, toPortError } from './errors.ts';
import { StateAttribute } from './keys.ts';
import { toEventSeenItem } from './mappers.ts';
import type { DocumentClient } from './pages.ts';

export class DynamoDbEventsSeenStore implements EventsSeenStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async recordOnce(key: string, now: Date, ttlSeconds: number): Promise<boolean> {
    const item = toEventSeenItem({ key, expiresAt: expiresAt(now, ttlSeconds) });
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: item,
          ...isNewOrExpired(StateAttribute.pk, now),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw toPortError(err, `recording event ${key}`);
    }
  }
}
