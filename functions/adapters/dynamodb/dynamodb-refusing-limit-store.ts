/**
 * Limits refusing capacity in one partition of the state table, one item per limit. Beginning
 * is a PutItem conditional on absence, so of passes racing to start the same refusal exactly
 * one tells of it.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RefusingLimit } from '../../domain/state/refusing-limit.ts';
import type { RefusingLimitStore } from '../../ports/state-store.ts';
import { isNew } from './conditions.ts';
import { isConditionFailure, toPortError } from './errors.ts';
import { Partition, refusingLimitKey, StateAttribute } from './keys.ts';
import { fromRefusingLimitItem, toRefusingLimitItem } from './mappers.ts';
import { type DocumentClient, queryAll } from './pages.ts';

export class DynamoDbRefusingLimitStore implements RefusingLimitStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async begin(limit: RefusingLimit): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: toRefusingLimitItem(limit),
          ...isNew(StateAttribute.pk),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw toPortError(err, `recording limit ${limit.key} as refusing`);
    }
  }

  async list(): Promise<readonly RefusingLimit[]> {
    try {
      const items = await queryAll(this.#client, {
        TableName: this.#tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': StateAttribute.pk },
        ExpressionAttributeValues: { ':pk': Partition.refusingLimit },
        ConsistentRead: true,
      });
      return items.map(fromRefusingLimitItem);
    } catch (err) {
      throw toPortError(err, 'listing refusing limits');
    }
  }

  async end(key: string): Promise<void> {
    try {
      await this.#client.send(
        new DeleteCommand({ TableName: this.#tableName, Key: refusingLimitKey(key) }),
      );
    } catch (err) {
      throw toPortError(err, `ending the refusal of limit ${key}`);
    }
  }
}
