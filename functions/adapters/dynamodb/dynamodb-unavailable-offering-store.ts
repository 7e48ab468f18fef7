/**
 * Unavailable offerings in one partition of the state table. DynamoDB's TTL removes them some
 * time after expiry (up to days later), so a read keeps only those still live at `now`.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expiresAt } from '../../domain/state/expiry.ts';
import {
  byOffering,
  type OfferingKey,
  type UnavailableOffering,
} from '../../domain/state/unavailable-offering.ts';
import type { UnavailableOfferingStore } from '../../ports/state-store.ts';
import { toPortError } from './errors.ts';
import { offeringKey, Partition } from './keys.ts';
import { fromOfferingItem, toOfferingItem } from './mappers.ts';
import { type DocumentClient, queryLive } from './pages.ts';

export class DynamoDbUnavailableOfferingStore implements UnavailableOfferingStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async mark(offering: OfferingKey, now: Date, ttlSeconds: number): Promise<UnavailableOffering> {
    const marked = fromOfferingItem(
      toOfferingItem({ ...offering, expiresAt: expiresAt(now, ttlSeconds) }),
    );
    try {
      await this.#client.send(
        new PutCommand({ TableName: this.#tableName, Item: toOfferingItem(marked) }),
      );
    } catch (err) {
      throw toPortError(err, `marking offering ${offeringKey(offering).sk} unavailable`);
    }
    return marked;
  }

  async listLive(now: Date): Promise<readonly UnavailableOffering[]> {
    try {
      const items = await queryLive(
        this.#client,
        this.#tableName,
        Partition.unavailableOffering,
        now,
      );
      return items.map(fromOfferingItem).sort(byOffering);
    } catch (err) {
      throw toPortError(err, 'listing unavailable offerings');
    }
  }
}
