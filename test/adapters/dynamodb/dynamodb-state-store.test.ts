import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDynamoDbStateStore } from '../../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import {
  createTables,
  type StateTableNames,
  type TableOptions,
} from '../../../functions/adapters/dynamodb/tables.ts';
import type { StateStore } from '../../../functions/ports/state-store.ts';
import { aNewNodeClaim, race, secondsAfter, T0 } from '../../contracts/state-fixtures.ts';
import { describeStateStoreContract } from '../../contracts/state-store.contract.ts';
import { makeLocalClient, useDynamoDbLocal } from '../../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
let client: DynamoDBClient | undefined;
let tableSets = 0;

afterAll(() => client?.destroy());

interface Tables {
  readonly client: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  readonly names: StateTableNames;
}

/**
 * A fresh pair of tables, so every test starts empty (the lease is a single item). TTL stays off
 * unless asked for: the tests' clock is behind the wall clock DynamoDB Local expires items by.
 */
async function makeTables(options: TableOptions = { timeToLive: false }): Promise<Tables> {
  client ??= makeLocalClient(endpoint());
  tableSets += 1;
  const names: StateTableNames = {
    nodeClaims: `node-claims-${process.pid}-${tableSets}`,
    state: `state-${process.pid}-${tableSets}`,
  };
  await createTables(client, names, options);
  return { client, documents: DynamoDBDocumentClient.from(client), names };
}

async function makeStore(): Promise<StateStore> {
  const { documents, names } = await makeTables();
  return makeDynamoDbStateStore({ client: documents, tables: names });
}

describeStateStoreContract('DynamoDB', makeStore);

describe('DynamoDB table layout', () => {
  it('creates the instance-id index and turns TTL on for the state table', async () => {
    const { client, names } = await makeTables({ timeToLive: true });
    const claims = await client.send(new DescribeTableCommand({ TableName: names.nodeClaims }));
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: names.state }));
    expect(claims.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual([
      'byInstanceId',
    ]);
    expect(ttl.TimeToLiveDescription).toMatchObject({
      AttributeName: 'ttl',
      TimeToLiveStatus: 'ENABLED',
    });
  });
});

describe('DynamoDB expiry on read', () => {
  it('never reads an expired record as live, although TTL has not removed it yet', async () => {
    // Prepare
    const { documents, names } = await makeTables();
    const store = makeDynamoDbStateStore({ client: documents, tables: names });
    const offering = {
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'spot',
    } as const;
    await store.unavailableOfferings.mark(offering, T0, 1);
    await store.eventsSeen.recordOnce('event-1', T0, 1);
    // Act
    const later = secondsAfter(T0, 2);
    const stillStored = await documents.send(
      new GetCommand({
        TableName: names.state,
        Key: { pk: 'UnavailableOffering', sk: 'm7g.large/us-east-1a/spot' },
      }),
    );
    // Assess
    expect(stillStored.Item).toMatchObject({ ttl: Math.ceil(T0.getTime() / 1000) + 1 });
    expect(await store.unavailableOfferings.listLive(later)).toEqual([]);
    expect(await store.eventsSeen.recordOnce('event-1', later, 1)).toBe(true);
  });

  it('gives the lease item no TTL, so its fencing token and last acquisition outlive every release', async () => {
    const { documents, names } = await makeTables();
    const store = makeDynamoDbStateStore({ client: documents, tables: names });
    const grant = await store.lease.acquire('pass-1', T0, 60);
    if (grant !== undefined) await store.lease.release(grant);
    const { Item } = await documents.send(
      new GetCommand({ TableName: names.state, Key: { pk: 'Lease', sk: 'controller' } }),
    );
    expect(Item).toEqual({
      pk: 'Lease',
      sk: 'controller',
      fencingToken: 1,
      acquiredAt: T0.toISOString(),
      previousAcquiredAt: '',
    });
  });
});

/**
 * DynamoDB cancels a transaction that meets another one on the same item with
 * TransactionConflict. Every fenced write reads the lease item, so a pass's concurrent writes
 * meet there; DynamoDB Local runs transactions one at a time and never answers so, hence the
 * answer is put in front of it: the first send of every other TransactWriteItems.
 */
function conflictingOnTheLeaseItem(documents: DynamoDBDocumentClient): { conflicts: number } {
  const seen = { sends: 0, conflicts: 0 };
  const firstSends = new WeakSet<object>();
  documents.middlewareStack.add(
    (next, context) => async (args) => {
      if (
        context.commandName !== 'TransactWriteItemsCommand' ||
        firstSends.has(args.input as object)
      )
        return next(args);
      firstSends.add(args.input as object);
      seen.sends += 1;
      if (seen.sends % 2 === 0) return next(args);
      seen.conflicts += 1;
      throw new TransactionCanceledException({
        message:
          'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
        $metadata: {},
        CancellationReasons: [
          { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
          { Code: 'None' },
        ],
      });
    },
    { step: 'initialize', name: 'transactionConflicts' },
  );
  return seen;
}

describe('DynamoDB fenced writes under contention', () => {
  it('lets 32 concurrent fenced claim writes of one pass through, though they conflict on the lease item', async () => {
    // Prepare
    const { names } = await makeTables();
    // A client of its own: the middleware goes on the client's stack, which document clients share.
    const own = makeLocalClient(endpoint());
    const documents = DynamoDBDocumentClient.from(own);
    const store = makeDynamoDbStateStore({ client: documents, tables: names });
    const fence = await store.lease.acquire('pass-1', T0, 240);
    if (fence === undefined) throw new Error('the lease was free');
    const seen = conflictingOnTheLeaseItem(documents);
    // Act
    const created = await race(32, (i) =>
      store.nodeClaims.create(aNewNodeClaim({ name: `default-${String(i).padStart(5, '0')}` }), {
        fence,
      }),
    );
    const updated = await race(32, (i) => {
      const claim = created.fulfilled[i];
      if (claim === undefined) throw new Error(`claim ${i} was not created`);
      return store.nodeClaims.update({ ...claim, phase: 'Launched' }, { fence });
    });
    // Assess
    expect(seen.conflicts).toBeGreaterThanOrEqual(32);
    expect(created.rejected).toEqual([]);
    expect(updated.rejected).toEqual([]);
    const stored = await store.nodeClaims.list();
    expect(stored.map((c) => [c.phase, c.version])).toEqual(stored.map(() => ['Launched', 2]));
    expect(stored).toHaveLength(32);
    own.destroy();
  });

  it('still refuses a stale fence at once, without trying again', async () => {
    const { documents, names } = await makeTables();
    const store = makeDynamoDbStateStore({ client: documents, tables: names });
    const stale = await store.lease.acquire('pass-1', T0, 60);
    await store.lease.acquire('pass-2', secondsAfter(T0, 61), 60);
    if (stale === undefined) throw new Error('the lease was free');
    const create = store.nodeClaims.create(aNewNodeClaim(), { fence: stale });
    await expect(create).rejects.toThrow(/fencing token 1 is stale/);
    expect(await store.nodeClaims.list()).toEqual([]);
  });
});
