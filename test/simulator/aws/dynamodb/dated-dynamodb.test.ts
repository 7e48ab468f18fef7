/**
 * DynamoDB Local behind the account's front: a function on the simulated clock, months from the
 * machine's, gets DynamoDB's answers dated on its own clock, so a failed condition costs it one
 * call, as on AWS, instead of the SDK's four attempts to correct a skew that is not there.
 */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type DatedDynamoDb,
  startDatedDynamoDb,
} from '../../../../simulator/aws/dynamodb/dated-dynamodb.ts';
import { makeLocalClient, useDynamoDbLocal } from '../../../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
/** The functions' clock: the simulation's time, 300 days behind the machine's. */
const BEHIND_MS = 300 * 24 * 3_600_000;
const TABLE = `dated-${process.pid}`;

let front: DatedDynamoDb | undefined;
let client: DynamoDBClient | undefined;

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
  front = await startDatedDynamoDb({ target: endpoint(), now: () => Date.now() });
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
