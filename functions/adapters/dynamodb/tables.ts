/**
 * The two tables behind the DynamoDB StateStore (docs/state.md explains the layout and why).
 * `tableDefinitions` is the single description of them: `createTables` builds them for tests
 * and DynamoDB Local, and the CDK StateTables construct declares the same keys, index and TTL
 * attribute, by the names in functions/contract/state-tables.ts (a template test compares them).
 */
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { INSTANCE_ID_INDEX } from '../../contract/state-tables.ts';
import { ClaimAttribute, StateAttribute } from './keys.ts';

export interface StateTableNames {
  /** One item per NodeClaim, keyed by name, with the instance-id index. */
  readonly nodeClaims: string;
  /** Everything else: pools, classes, unavailable offerings, the lease, events seen. */
  readonly state: string;
}

/** Epoch seconds; DynamoDB deletes expired items lazily, so reads filter on `expiresAt` too. */
export const TTL_ATTRIBUTE = StateAttribute.ttl;

export function tableDefinitions(names: StateTableNames): readonly CreateTableCommandInput[] {
  return [
    {
      TableName: names.nodeClaims,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: ClaimAttribute.name, AttributeType: 'S' },
        { AttributeName: ClaimAttribute.instanceId, AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: ClaimAttribute.name, KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: INSTANCE_ID_INDEX,
          KeySchema: [{ AttributeName: ClaimAttribute.instanceId, KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    },
    {
      TableName: names.state,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: StateAttribute.pk, AttributeType: 'S' },
        { AttributeName: StateAttribute.sk, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: StateAttribute.pk, KeyType: 'HASH' },
        { AttributeName: StateAttribute.sk, KeyType: 'RANGE' },
      ],
    },
  ];
}

export interface TableOptions {
  /**
   * Turn TTL on for the state table, as deployed (the default). A store driven by a simulated
   * clock leaves it off: DynamoDB Local deletes expired items by the wall clock, so items a
   * simulated clock still holds live would vanish at random; expiry is read from the items
   * anyway (`listLive`, the conditions), so nothing else changes.
   */
  readonly timeToLive?: boolean;
}

/** Creates both tables, waits until they are active and turns TTL on for the state table. */
export async function createTables(
  client: DynamoDBClient,
  names: StateTableNames,
  { timeToLive = true }: TableOptions = {},
): Promise<void> {
  const definitions = tableDefinitions(names);
  await Promise.all(
    definitions.map((definition) => client.send(new CreateTableCommand(definition))),
  );
  // DynamoDB Local answers at once; AWS takes seconds, so the waiter polls every second or two.
  const waiter = { client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 };
  await Promise.all(
    definitions.map(({ TableName }) => waitUntilTableExists(waiter, { TableName })),
  );
  if (!timeToLive) return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: names.state,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}
