/**
 * DynamoDB's transaction conflicts, which DynamoDB Local does not have: it runs transactions one
 * at a time. DynamoDB cancels a TransactWriteItems that meets another still in progress on any of
 * its items with TransactionCanceledException, a `TransactionConflict` reason for each part that
 * met and `None` for the rest, and refuses a PutItem, UpdateItem or DeleteItem on such an item
 * with TransactionConflictException (the AWS DynamoDB Developer Guide, "Transaction conflict
 * handling"). Here a transaction is in progress from the moment the front passes it on until
 * Local's answer to it has gone back.
 */
import type { JsonObject } from '../../api-server/json.ts';
import type { CloudFormationTemplate } from '../../iam/template-policies.ts';
import type { ResolveValue } from '../../lambda/template-resolver.ts';

/** Each table's key attributes, by table name. */
export type KeySchemas = ReadonlyMap<string, readonly string[]>;

/** The template's tables: the stack declares its own as global tables (CDK's `TableV2`). */
const TABLE_TYPES = new Set(['AWS::DynamoDB::GlobalTable', 'AWS::DynamoDB::Table']);

/** The key attributes of the template's tables, under the names the stack gives them. */
export function keySchemas(template: CloudFormationTemplate, resolve: ResolveValue): KeySchemas {
  const out = new Map<string, string[]>();
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (!TABLE_TYPES.has(resource.Type)) continue;
    const keys = (resource.Properties?.KeySchema ?? []) as { AttributeName: string }[];
    out.set(
      resolve({ Ref: logicalId }),
      keys.map((key) => key.AttributeName),
    );
  }
  return out;
}

const TARGET_PREFIX = 'DynamoDB_20120810.';
const SINGLE_ITEM_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);
const ERROR_TYPE = 'com.amazonaws.dynamodb.v20120810#';

/** An answer DynamoDB gives in place of the call's: its HTTP status and JSON body. */
export interface Refusal {
  readonly status: number;
  readonly body: string;
}

interface Operation {
  readonly TableName?: string;
  readonly Key?: JsonObject;
  readonly Item?: JsonObject;
}

/** What a call holds or was refused: a refusal to send back, or the release of what it holds. */
export type Admission = { readonly refusal: Refusal } | { readonly release: () => void };

export class TransactionConflicts {
  readonly #schemas: KeySchemas;
  readonly #inProgress = new Set<string>();
  /** Calls answered with a conflict so far. */
  conflicts = 0;

  constructor(schemas: KeySchemas) {
    this.#schemas = schemas;
  }

  /** Whether calls to this target (`X-Amz-Target`) can meet a transaction. */
  concerns(target: string): boolean {
    const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
    return operation === 'TransactWriteItems' || SINGLE_ITEM_WRITES.has(operation);
  }

  /** Lets the call on, holding a transaction's items until released, or refuses it. */
  admit(target: string, body: string): Admission {
    const input = JSON.parse(body) as { TransactItems?: Record<string, Operation>[] } & Operation;
    if (!target.endsWith('.TransactWriteItems')) {
      if (!this.#inProgress.has(this.#itemOf(input))) return { release: () => undefined };
      this.conflicts += 1;
      return { refusal: refusal('TransactionConflictException', 'message', []) };
    }
    const items = (input.TransactItems ?? []).map((part) =>
      this.#itemOf(Object.values(part)[0] ?? {}),
    );
    if (items.some((item) => this.#inProgress.has(item))) {
      this.conflicts += 1;
      const reasons = items.map((item) =>
        this.#inProgress.has(item) ? 'TransactionConflict' : 'None',
      );
      return { refusal: refusal('TransactionCanceledException', 'Message', reasons) };
    }
    for (const item of items) this.#inProgress.add(item);
    const release = () => {
      for (const item of items) this.#inProgress.delete(item);
    };
    return { release };
  }

  /** The table and key the operation writes or checks, in the table's key order. */
  #itemOf({ TableName = '', Key, Item }: Operation): string {
    const attributes = this.#schemas.get(TableName) ?? [];
    const values = Key ?? Item ?? {};
    return `${TableName}/${attributes.map((name) => JSON.stringify(values[name])).join('/')}`;
  }
}

function refusal(type: string, messageField: string, reasons: readonly string[]): Refusal {
  const message =
    reasons.length === 0
      ? 'Transaction is ongoing for the item'
      : `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.join(', ')}]`;
  const body: JsonObject = { __type: `${ERROR_TYPE}${type}`, [messageField]: message };
  if (reasons.length > 0) {
    body.CancellationReasons = reasons.map(
      (Code): JsonObject =>
        Code === 'None' ? { Code } : { Code, Message: 'Transaction is ongoing for the item' },
    );
  }
  return { status: 400, body: JSON.stringify(body) };
}
