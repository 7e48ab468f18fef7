/**
 * Every page of a Query or Scan, through the SDK's paginators: lists must be complete, not the
 * first megabyte.
 */
import {
  type DynamoDBDocumentClient,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { StateAttribute } from './keys.ts';

/** A whole client: the paginators accept nothing else. */
export type DocumentClient = DynamoDBDocumentClient;
export type Item = Record<string, unknown>;

async function collect(pages: AsyncIterable<{ Items?: Item[] }>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
}

export function queryAll(client: DocumentClient, input: QueryCommandInput): Promise<Item[]> {
  return collect(paginateQuery({ client }, { ...input }));
}

export function scanAll(client: DocumentClient, input: ScanCommandInput): Promise<Item[]> {
  return collect(paginateScan({ client }, { ...input }));
}

/**
 * Every item of one partition of the state table still live at `now`, strongly consistent:
 * DynamoDB's TTL deletes expired items lazily, so a read filters on `expiresAt` too.
 */
export function queryLive(
  client: DocumentClient,
  tableName: string,
  partition: string,
  now: Date,
): Promise<Item[]> {
  return queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk',
    FilterExpression: '#expiresAt > :now',
    ExpressionAttributeNames: { '#pk': StateAttribute.pk, '#expiresAt': StateAttribute.expiresAt },
    ExpressionAttributeValues: { ':pk': partition, ':now': now.toISOString() },
    ConsistentRead: true,
  });
}
