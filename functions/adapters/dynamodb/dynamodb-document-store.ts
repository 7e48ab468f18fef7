/**
 * NodePools, EC2NodeClasses, NodeOverlays or limits in the state table, one partition per kind
 * (a strongly consistent Query lists them). Create is conditional on absence, put on the resourceVersion read.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { byDocumentName } from '../../domain/state/order.ts';
import type { NamedDocument, StoredDocument } from '../../domain/state/stored-document.ts';
import { NotFoundError } from '../../ports/errors.ts';
import type { DocumentChange, DocumentStore } from '../../ports/state-store.ts';
import { hasVersion, isGoneOrHasVersion, isNew } from './conditions.ts';
import { isMissingItemFailure, toPortError } from './errors.ts';
import { type DocumentPartition, documentKey, StateAttribute } from './keys.ts';
import { fromDocumentItem, toDocumentItem } from './mappers.ts';
import { type DocumentClient, queryAll } from './pages.ts';

export interface DynamoDbDocumentStoreOptions {
  readonly client: DocumentClient;
  readonly tableName: string;
  readonly partition: DocumentPartition;
  /** Names the documents in error messages ("node pool"). */
  readonly kind: string;
}

export class DynamoDbDocumentStore<TDocument extends NamedDocument>
  implements DocumentStore<TDocument>
{
  readonly #options: DynamoDbDocumentStoreOptions;

  constructor(options: DynamoDbDocumentStoreOptions) {
    this.#options = options;
  }

  async create(document: TDocument, hash: string): Promise<StoredDocument<TDocument>> {
    const { client, tableName, partition, kind } = this.#options;
    const item = toDocumentItem(partition, { document, hash, resourceVersion: 1 });
    try {
      await client.send(
        new PutCommand({ TableName: tableName, Item: item, ...isNew(StateAttribute.pk) }),
      );
    } catch (err) {
      throw toPortError(err, `creating ${kind} ${document.metadata.name}`);
    }
    return fromDocumentItem(item);
  }

  async put(change: DocumentChange<TDocument>): Promise<StoredDocument<TDocument>> {
    const { client, tableName, partition, kind } = this.#options;
    const resourceVersion = change.expectedResourceVersion + 1;
    const item = toDocumentItem(partition, { ...change, resourceVersion });
    const doing = `updating ${kind} ${change.document.metadata.name}`;
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: item,
          ...hasVersion(StateAttribute.resourceVersion, change.expectedResourceVersion),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (err) {
      if (isMissingItemFailure(err))
        throw new NotFoundError(`${doing}: it does not exist`, { cause: err });
      throw toPortError(err, doing);
    }
    return fromDocumentItem(item);
  }

  async get(name: string): Promise<StoredDocument<TDocument> | undefined> {
    const { client, tableName, partition, kind } = this.#options;
    try {
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: documentKey(partition, name),
          ConsistentRead: true,
        }),
      );
      return Item === undefined ? undefined : fromDocumentItem(Item);
    } catch (err) {
      throw toPortError(err, `reading ${kind} ${name}`);
    }
  }

  async list(): Promise<readonly StoredDocument<TDocument>[]> {
    const { client, tableName, partition, kind } = this.#options;
    try {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': StateAttribute.pk },
        ExpressionAttributeValues: { ':pk': partition },
        ConsistentRead: true,
      });
      return items.map((item) => fromDocumentItem<TDocument>(item)).sort(byDocumentName);
    } catch (err) {
      throw toPortError(err, `listing ${kind}s`);
    }
  }

  async delete(name: string, expectedResourceVersion?: number): Promise<void> {
    const { client, tableName, partition, kind } = this.#options;
    const condition =
      expectedResourceVersion === undefined
        ? {}
        : isGoneOrHasVersion(
            StateAttribute.pk,
            StateAttribute.resourceVersion,
            expectedResourceVersion,
          );
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: documentKey(partition, name),
          ...condition,
        }),
      );
    } catch (err) {
      throw toPortError(err, `deleting ${kind} ${name}`);
    }
  }
}
