/**
 * DynamoDB Local behind the account's front: a function on the simulated clock, months from the
 * machine's, gets DynamoDB's answers dated on its own clock, so a failed condition costs it one
 * call, as on AWS, instead of the SDK's four attempts to correct a skew that is not there.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type DatedDynamoDb,
  startDatedDynamoDb,
} from '../../../../simulator/aws/dynamodb/dated-dynamodb.ts';
import { TransactionConflicts } from '../../../../simulator/aws/dynamodb/transaction-conflicts.ts';
import { makeLocalClient, useDynamoDbLocal } from '../../../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
/** The functions' clock: the simulation's time, 300 days behind the machine's. */
const BEHIND_MS = 300 * 24 * 3_600_000;
const TABLE = `dated-${process.pid}`;

let front: DatedDynamoDb | undefined;
let client: DynamoDBClient | undefined;
const conflicts = new TransactionConflicts(new Map([[TABLE, ['pk']]]));

beforeAll(async () => {
  await makeLocalClient(endpoint()).send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  // This process's Date is the functions' clock, as a function's process has it.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - BEHIND_MS, shouldAdvanceTime: true });
  front = await startDatedDynamoDb({ target: endpoint(), now: () => Date.now(), conflicts });
  client = new DynamoDBClient({
    endpoint: front.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'nodesmith', secretAccessKey: 'nodesmith' },
  });
});

afterAll(async () => {
  vi.useRealTimers();
  client?.destroy();
  await front?.close();
});

describe('DynamoDB Local dated on the functions’ clock', () => {
  it('passes calls and answers through unchanged', async () => {
    // Prepare
    const documents = DynamoDBDocumentClient.from(client as DynamoDBClient);
    await documents.send(new PutCommand({ TableName: TABLE, Item: { pk: 'a', value: 'é & <b>' } }));

    // Act
    const read = await documents.send(new GetCommand({ TableName: TABLE, Key: { pk: 'a' } }));

    // Assess
    expect(read.Item).toEqual({ pk: 'a', value: 'é & <b>' });
    expect(read.$metadata.attempts).toBe(1);
  });

  it('answers a failed condition once, dated on the caller’s clock, so it is not sent again', async () => {
    // Prepare
    const documents = DynamoDBDocumentClient.from(client as DynamoDBClient);
    const create = () =>
      documents.send(
        new PutCommand({
          TableName: TABLE,
          Item: { pk: 'b' },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    await create();

    // Act
    const failed = await create().catch((err: unknown) => err);

    // Assess
    expect(failed).toMatchObject({
      name: 'ConditionalCheckFailedException',
      $metadata: { attempts: 1 },
    });
  });
});

describe('DynamoDB’s transaction conflicts in front of DynamoDB Local', () => {
  /** Another writer's transaction, in progress on the item `pk` until released. */
  function inProgressOn(pk: string): () => void {
    const body = JSON.stringify({
      TransactItems: [{ Put: { TableName: TABLE, Item: { pk: { S: pk } } } }],
    });
    const admission = conflicts.admit('DynamoDB_20120810.TransactWriteItems', body);
    if ('refusal' in admission) throw new Error(`${pk} is held already`);
    return admission.release;
  }

  it('cancels a transaction that meets one in progress, naming the part that met, as DynamoDB answers', async () => {
    // Prepare
    const documents = DynamoDBDocumentClient.from(client as DynamoDBClient);
    const release = inProgressOn('held');
    const transaction = () =>
      documents.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { pk: 'free' } } },
            { Put: { TableName: TABLE, Item: { pk: 'held', by: 'second' } } },
          ],
        }),
      );

    // Act
    const cancelled = await transaction().catch((err: unknown) => err);
    const refused = await documents
      .send(new PutCommand({ TableName: TABLE, Item: { pk: 'held' } }))
      .catch((err: unknown) => err);
    release();
    await transaction();

    // Assess
    expect(cancelled).toMatchObject({
      name: 'TransactionCanceledException',
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
      ],
      $metadata: { httpStatusCode: 400 },
    });
    expect(refused).toMatchObject({ name: 'TransactionConflictException' });
    const read = await documents.send(new GetCommand({ TableName: TABLE, Key: { pk: 'held' } }));
    expect(read.Item).toEqual({ pk: 'held', by: 'second' });
  });

  it('holds no item once the transaction is answered', async () => {
    const documents = DynamoDBDocumentClient.from(client as DynamoDBClient);
    const before = conflicts.conflicts;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        documents.send(
          new TransactWriteCommand({
            TransactItems: [{ Put: { TableName: TABLE, Item: { pk: `own-${i}` } } }],
          }),
        ),
      ),
    );
    await documents.send(new PutCommand({ TableName: TABLE, Item: { pk: 'own-0', again: true } }));
    expect(conflicts.conflicts).toBe(before);
  });
});
