/**
 * DynamoDB Local for tests: start it in `beforeAll` and stop it in `afterAll` with
 * `useDynamoDbLocal()`, or once for the whole run by naming this file in vitest's `globalSetup`
 * (its `setup`/`teardown` exports); `useDynamoDbLocal()` then reuses that instance.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import {
  type DynamoDbLocal,
  makeLocalClient,
  startDynamoDbLocal,
} from '../../functions/adapters/dynamodb/dynamodb-local.ts';
import { makeDynamoDbStateStore } from '../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables } from '../../functions/adapters/dynamodb/tables.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';

export {
  type DynamoDbLocal,
  makeLocalClient,
  startDynamoDbLocal,
} from '../../functions/adapters/dynamodb/dynamodb-local.ts';

const ENDPOINT_VARIABLE = 'NODESMITH_DYNAMODB_LOCAL_ENDPOINT';

/**
 * Registers `beforeAll`/`afterAll` hooks for the calling test file and returns a getter for the
 * endpoint. Reuses the instance of a `globalSetup` run when there is one.
 */
export function useDynamoDbLocal(): () => string {
  let local: DynamoDbLocal | undefined;
  let endpoint = process.env[ENDPOINT_VARIABLE];
  beforeAll(async () => {
    if (endpoint !== undefined) return;
    local = await startDynamoDbLocal();
    endpoint = local.endpoint;
  });
  afterAll(async () => {
    await local?.stop();
  });
  return () => {
    if (endpoint === undefined) throw new Error('using dynamodb local: it has not started');
    return endpoint;
  };
}

let shared: DynamoDbLocal | undefined;

/** vitest `globalSetup`: one instance for every test file, announced through the environment. */
export async function setup(): Promise<void> {
  shared = await startDynamoDbLocal();
  process.env[ENDPOINT_VARIABLE] = shared.endpoint;
}

export async function teardown(): Promise<void> {
  await shared?.stop();
  delete process.env[ENDPOINT_VARIABLE];
}

/**
 * For a test file whose tests each want an empty StateStore on DynamoDB Local: returns a maker of
 * stores on new tables named after `prefix`, and closes their clients after the file.
 */
export function useFreshStateStores(prefix: string): () => Promise<StateStore> {
  const endpoint = useDynamoDbLocal();
  const clients: { destroy(): void }[] = [];
  let tableSets = 0;
  afterAll(() => {
    for (const client of clients) client.destroy();
  });
  return async () => {
    const client = makeLocalClient(endpoint());
    clients.push(client);
    tableSets += 1;
    const tables = {
      state: `${prefix}-state-${process.pid}-${tableSets}`,
      nodeClaims: `${prefix}-claims-${process.pid}-${tableSets}`,
    };
    // Tests set the clock, often days behind the wall clock DynamoDB Local expires items by.
    await createTables(client, tables, { timeToLive: false });
    return makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
  };
}
