/**
 * DynamoDB Local for tests: `useDynamoDbLocal()` gives a test file the instance vitest's
 * `globalSetup` started for the run (this file's `setup`/`teardown`, which vitest.config.mts
 * names for the files that call it), or else starts one in `beforeAll` and stops it in
 * `afterAll`. Files sharing the instance keep to tables of their own names.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import type { TestProject } from 'vitest/node';
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

declare module 'vitest' {
  export interface ProvidedContext {
    /** The endpoint of the DynamoDB Local `setup` started, when it ran. */
    dynamoDbLocalEndpoint: string | undefined;
  }
}

/**
 * Registers `beforeAll`/`afterAll` hooks for the calling test file and returns a getter for the
 * endpoint. Reuses the instance of a `globalSetup` run when there is one.
 */
export function useDynamoDbLocal(): () => string {
  let local: DynamoDbLocal | undefined;
  let endpoint = inject('dynamoDbLocalEndpoint');
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

/** vitest `globalSetup`: one instance for every test file of the project, provided to them. */
export async function setup(project: TestProject): Promise<void> {
  shared = await startDynamoDbLocal();
  project.provide('dynamoDbLocalEndpoint', shared.endpoint);
}

export async function teardown(): Promise<void> {
  await shared?.stop();
  shared = undefined;
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
