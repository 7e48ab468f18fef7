/**
 * Ended disruptions in one partition of the state table, one item per claim. DynamoDB's TTL
 * removes them some time after expiry, so a read keeps only those still live at `now`.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expiresAt } from '../../domain/state/expiry.ts';
import { byEnd, type PastDisruption } from '../../domain/state/past-disruption.ts';
import type { PastDisruptionStore } from '../../ports/state-store.ts';
import { toPortError } from './errors.ts';
import { Partition } from './keys.ts';
import { fromPastDisruptionItem, toPastDisruptionItem } from './mappers.ts';
import { type DocumentClient, queryLive } from './pages.ts';

export class DynamoDbPastDisruptionStore implements PastDisruptionStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async record(
    ended: Omit<PastDisruption, 'expiresAt'>,
    now: Date,
    ttlSeconds: number,
  ): Promise<void> {
    const item = toPastDisruptionItem({ ...ended, expiresAt: expiresAt(now, ttlSeconds) });
    try {
      await this.#client.send(new PutCommand({ TableName: this.#tableName, Item: item }));
    } catch (err) {
      throw toPortError(err, `recording the disruption of ${ended.nodeClaim}`);
    }
  }

  async listRecent(now: Date): Promise<readonly PastDisruption[]> {
    try {
      const items = await queryLive(this.#client, this.#tableName, Partition.pastDisruption, now);
      return items.map(fromPastDisruptionItem).sort(byEnd);
    } catch (err) {
      throw toPortError(err, 'listing past disruptions');
    }
  }
}
