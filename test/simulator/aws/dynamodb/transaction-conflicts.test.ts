/**
 * The transaction conflicts the deployed twin keeps in front of DynamoDB Local: which items a
 * call holds, by the key schemas of the template's own tables.
 */
import { describe, expect, it } from 'vitest';
import {
  keySchemas,
  TransactionConflicts,
} from '../../../../simulator/aws/dynamodb/transaction-conflicts.ts';
import { simulatedAccount } from '../../../../simulator/iam/simulated-account.ts';
import { templateResolver } from '../../../../simulator/lambda/template-resolver.ts';

/** Two tables as the stack declares them: global tables (CDK's TableV2), named by the stack. */
const template = {
  Resources: {
    Claims: {
      Type: 'AWS::DynamoDB::GlobalTable',
      Properties: { KeySchema: [{ AttributeName: 'name', KeyType: 'HASH' }] },
    },
    State: {
      Type: 'AWS::DynamoDB::GlobalTable',
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      },
    },
  },
};

const resolve = templateResolver(template, simulatedAccount({ stackName: 'Nodesmith-shop' }));
const schemas = keySchemas(template, resolve);
const [claims, state] = ['Claims', 'State'].map((id) => resolve({ Ref: id }));

const TRANSACT = 'DynamoDB_20120810.TransactWriteItems';

function transaction(...parts: object[]): string {
  return JSON.stringify({ TransactItems: parts });
}

const leaseCheck = {
  ConditionCheck: { TableName: state, Key: { pk: { S: 'Lease' }, sk: { S: 'controller' } } },
};
const claim = (name: string) => ({
  Put: { TableName: claims, Item: { name: { S: name }, phase: { S: 'Pending' } } },
});

describe('the transaction conflicts of the deployed twin', () => {
  it("reads each table's key from the template's global tables", () => {
    expect([...schemas]).toEqual([
      [claims, ['name']],
      [state, ['pk', 'sk']],
    ]);
  });

  it('cancels a transaction meeting one in progress on any item, and lets it through once that ends', () => {
    const conflicts = new TransactionConflicts(schemas);
    const first = conflicts.admit(TRANSACT, transaction(leaseCheck, claim('a')));
    const second = conflicts.admit(TRANSACT, transaction(leaseCheck, claim('b')));
    const elsewhere = conflicts.admit(TRANSACT, transaction(claim('c')));
    if (!('release' in first)) throw new Error('the first was refused');
    first.release();
    const again = conflicts.admit(TRANSACT, transaction(leaseCheck, claim('b')));
    expect(second).toEqual({
      refusal: {
        status: 400,
        body: JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          Message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
          CancellationReasons: [
            { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
            { Code: 'None' },
          ],
        }),
      },
    });
    expect('release' in elsewhere && 'release' in again).toBe(true);
    expect(conflicts.conflicts).toBe(1);
  });

  it('refuses a single-item write on an item a transaction holds, and holds nothing for one', () => {
    const conflicts = new TransactionConflicts(schemas);
    conflicts.admit(TRANSACT, transaction(leaseCheck, claim('a')));
    const update = JSON.stringify({
      TableName: state,
      Key: { sk: { S: 'controller' }, pk: { S: 'Lease' } },
      UpdateExpression: 'SET #e = :e',
    });
    const put = JSON.stringify(claim('z').Put);
    expect(conflicts.admit('DynamoDB_20120810.UpdateItem', update)).toEqual({
      refusal: {
        status: 400,
        body: JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
          message: 'Transaction is ongoing for the item',
        }),
      },
    });
    expect('release' in conflicts.admit('DynamoDB_20120810.PutItem', put)).toBe(true);
    expect('release' in conflicts.admit('DynamoDB_20120810.PutItem', put)).toBe(true);
  });

  it('concerns only the writes that can meet a transaction', () => {
    const conflicts = new TransactionConflicts(schemas);
    expect(
      ['TransactWriteItems', 'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query'].map((op) =>
        conflicts.concerns(`DynamoDB_20120810.${op}`),
      ),
    ).toEqual([true, true, true, true, false, false]);
  });
});
