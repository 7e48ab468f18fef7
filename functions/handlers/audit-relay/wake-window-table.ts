/**
 * The cluster's wake window in the state table, as the admission entry point reaches it: its
 * own DynamoDB client, loaded with the first admission call (index.ts), so the audit entry
 * points, which share the bundle, never load DynamoDB.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbWakeWindowStore } from '../../adapters/dynamodb/dynamodb-wake-window-store.ts';
import type { WakeWindowStore } from '../../ports/state-store.ts';

export function wakeWindowTable(tableName: string): WakeWindowStore {
  return new DynamoDbWakeWindowStore(
    DynamoDBDocumentClient.from(new DynamoDBClient({})),
    tableName,
  );
}
