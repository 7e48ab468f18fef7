import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
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
import { conflictingAsDynamoDbDoes, nextTurn, pause } from '../../support/dynamodb-conflicts.ts';
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
 * A pass holding the lease, on fresh tables, through a client of its own: the conflicts'
 * middleware goes on the client's stack, which document clients share.
 */
async function aPassHoldingTheLease() {
  const { names } = await makeTables();
  const own = makeLocalClient(endpoint());
  const documents = DynamoDBDocumentClient.from(own);
  const store = makeDynamoDbStateStore({ client: documents, tables: names });
  const fence = await store.lease.acquire('pass-1', T0, 240);
  if (fence === undefined) throw new Error('the lease was free');
  return { own, documents, names, store, fence };
}

describe('DynamoDB claim writes under contention', () => {
  it('lets 32 concurrent fenced claim writes of one pass through in a few transactions, none meeting another on the lease item', async () => {
    // Prepare
    const { own, documents, names, store, fence } = await aPassHoldingTheLease();
    const seen = conflictingAsDynamoDbDoes([documents], names);
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
    expect(created.rejected).toEqual([]);
    expect(updated.rejected).toEqual([]);
    // Each of the two rounds: the first write alone, then the 31 that waited for it, 25 and 6.
    expect([seen.sends, seen.conflicts]).toEqual([6, 0]);
    const stored = await store.nodeClaims.list();
    expect(stored.map((c) => [c.phase, c.version])).toEqual(stored.map(() => ['Launched', 2]));
    expect(stored).toHaveLength(32);
    own.destroy();
  });

  it('answers each write of a shared transaction for itself: a failed condition fails that write alone', async () => {
    // Prepare: one write in flight, so the next ones wait for it and go in one transaction.
    const { own, documents, names, store, fence } = await aPassHoldingTheLease();
    const [a, b] = await Promise.all(
      ['default-0000a', 'default-0000b'].map((name) =>
        store.nodeClaims.create(aNewNodeClaim({ name }), { fence }),
      ),
    );
    if (a === undefined || b === undefined) throw new Error('two claims');
    const seen = conflictingAsDynamoDbDoes([documents], names);
    // Act
    const pacing = store.nodeClaims.create(aNewNodeClaim({ name: 'default-0000p' }), { fence });
    const outcomes = await Promise.allSettled([
      store.nodeClaims.update({ ...a, phase: 'Launched' }, { fence }),
      store.nodeClaims.update({ ...b, version: 7, phase: 'Launched' }, { fence }),
      store.nodeClaims.create(aNewNodeClaim({ name: 'default-0000a' }), { fence }),
      store.nodeClaims.update({ ...a, phase: 'Registered' }, { fence }),
      store.nodeClaims.create(aNewNodeClaim({ name: 'default-0000c' }), { fence }),
    ]);
    await pacing;
    // Assess
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'written' : String(o.reason)))).toEqual([
      'written',
      expect.stringMatching(/ConflictError: updating node claim default-0000b/),
      expect.stringMatching(/creating node claim default-0000a: the name is taken/),
      expect.stringMatching(/ConflictError: updating node claim default-0000a/),
      'written',
    ]);
    // The pacing write; the first write of each claim together (a, b, c), cancelled by b's; a
    // and c again; then claim a's two other writes, each in its own transaction.
    expect(seen.sends).toBe(5);
    const stored = await store.nodeClaims.list();
    expect(stored.map((c) => [c.name, c.phase, c.version])).toEqual([
      ['default-0000a', 'Launched', 2],
      ['default-0000b', 'Pending', 1],
      ['default-0000c', 'Pending', 1],
      ['default-0000p', 'Pending', 1],
    ]);
    own.destroy();
  });

  it("sends a write again when another writer's transaction cancelled it", async () => {
    // Prepare: two functions' containers, each with its own store, writing without a fence (as
    // the interruption function does), so both add to the one claims revision item; the first's
    // write stays in progress until the second's has met it.
    const { documents, names } = await makeTables();
    const setup = makeDynamoDbStateStore({ client: documents, tables: names });
    const claims = await Promise.all([
      setup.nodeClaims.create(aNewNodeClaim({ name: 'default-00001' })),
      setup.nodeClaims.create(aNewNodeClaim({ name: 'default-00002' })),
    ]);
    const owns = [makeLocalClient(endpoint()), makeLocalClient(endpoint())];
    const clients = owns.map((own) => DynamoDBDocumentClient.from(own));
    const stores = clients.map((client) => makeDynamoDbStateStore({ client, tables: names }));
    const seen = conflictingAsDynamoDbDoes(clients, names, async (contention) => {
      while (contention.conflicts === 0) await nextTurn();
    });
    // Act
    const updated = await race(2, async (i) => {
      if (i === 1) while (seen.inProgress() === 0) await nextTurn();
      const [claim, store] = [claims[i], stores[i]];
      if (claim === undefined || store === undefined) throw new Error(`claim ${i} was not created`);
      return store.nodeClaims.update({ ...claim, phase: 'Launched' });
    });
    // Assess
    expect(updated.rejected).toEqual([]);
    // Met at least once; sent again each time (Local may still be running the first's).
    expect(seen.conflicts).toBeGreaterThanOrEqual(1);
    expect(seen.sends).toBe(2 + seen.conflicts);
    const stored = await setup.nodeClaims.list();
    expect(stored.map((c) => [c.phase, c.version])).toEqual([
      ['Launched', 2],
      ['Launched', 2],
    ]);
    for (const own of owns) own.destroy();
  });

  it("finds the lease in use when taking it meets the holder's write in progress", async () => {
    // Prepare: the holder's lease has run out, but nobody has taken it, so its fence still admits
    // the claim it writes; another container's pass comes to take the lease while that write is
    // in progress on the lease item.
    const { names } = await makeTables();
    const owns = [makeLocalClient(endpoint()), makeLocalClient(endpoint())];
    const clients = owns.map((own) => DynamoDBDocumentClient.from(own));
    const [holder, taker] = clients.map((client) =>
      makeDynamoDbStateStore({ client, tables: names }),
    );
    if (holder === undefined || taker === undefined) throw new Error('two stores');
    const fence = await holder.lease.acquire('pass-1', T0, 60);
    if (fence === undefined) throw new Error('the lease was free');
    const seen = conflictingAsDynamoDbDoes(clients, names, () => pause(200));
    const writing = holder.nodeClaims.create(aNewNodeClaim(), { fence });
    while (seen.inProgress() === 0) await nextTurn();
    // Act
    const taken = await taker.lease.acquire('pass-2', secondsAfter(T0, 61), 60);
    // Assess
    expect(taken).toBeUndefined();
    await writing;
    expect(await taker.lease.acquire('pass-2', secondsAfter(T0, 61), 60)).toMatchObject({
      holder: 'pass-2',
      fencingToken: fence.fencingToken + 1,
    });
    for (const own of owns) own.destroy();
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
