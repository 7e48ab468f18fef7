/**
 * DynamoDB's transaction conflicts, in front of DynamoDB Local, which runs transactions one at a
 * time and never answers with them. DynamoDB cancels a TransactWriteItems that meets another
 * still in progress on any of its items with TransactionConflict, naming the parts that met, and
 * refuses a single-item write on such an item with TransactionConflictException (the AWS DynamoDB
 * Developer Guide, "Transaction conflict handling").
 */
import {
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Contention {
  /** TransactWriteItems sent, cancelled ones included. */
  sends: number;
  /** Transactions cancelled for meeting another in progress. */
  conflicts: number;
  /** Items a transaction is in progress on now. */
  inProgress(): number;
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Item = Record<string, unknown>;
type Operation = { TableName?: string; Key?: object; Item?: Item };

/** The single-item writes DynamoDB refuses while a transaction is in progress on their item. */
const SINGLE_ITEM_WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);

/** The table and key an operation writes or checks: what a transaction holds. */
function itemOf({ TableName, Key, Item: item = {} }: Operation): string {
  const key = Key ?? ('pk' in item ? { pk: item.pk, sk: item.sk } : { name: item.name });
  return `${TableName}/${JSON.stringify(key)}`;
}

function cancelled(reasons: readonly string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.join(', ')}]`,
    $metadata: {},
    CancellationReasons: reasons.map((Code) => ({ Code })),
  });
}

class Conflicts {
  readonly #inProgress = new Set<string>();
  readonly seen: Contention;
  readonly #hold: (seen: Contention) => Promise<void>;

  constructor(hold: (seen: Contention) => Promise<void>) {
    this.#hold = hold;
    this.seen = { sends: 0, conflicts: 0, inProgress: () => this.#inProgress.size };
  }

  /** A single-item write goes on unless a transaction is in progress on its item. */
  write(operation: Operation): void {
    if (this.#inProgress.has(itemOf(operation))) {
      throw new TransactionConflictException({
        message: 'Transaction is ongoing for the item',
        $metadata: {},
      });
    }
  }

  /** A transaction holds its items while `hold` and Local run it, unless one is held already. */
  async transact<T>(parts: readonly Record<string, Operation>[], send: () => Promise<T>) {
    const items = parts.map((part) => itemOf(Object.values(part)[0] ?? {}));
    this.seen.sends += 1;
    if (items.some((item) => this.#inProgress.has(item))) {
      this.seen.conflicts += 1;
      throw cancelled(items.map((i) => (this.#inProgress.has(i) ? 'TransactionConflict' : 'None')));
    }
    for (const item of items) this.#inProgress.add(item);
    try {
      await this.#hold(this.seen);
      return await send();
    } finally {
      for (const item of items) this.#inProgress.delete(item);
    }
  }
}

/**
 * Puts the rule in front of every client given, shared among them: each transaction is in
 * progress until `hold` resolves (5 ms by default) and then for as long as Local takes, as a real
 * one holds its items for milliseconds.
 */
export function conflictingAsDynamoDbDoes(
  clients: readonly DynamoDBDocumentClient[],
  hold: (seen: Contention) => Promise<void> = () => pause(5),
): Contention {
  const conflicts = new Conflicts(hold);
  for (const documents of clients) {
    documents.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? '';
        if (SINGLE_ITEM_WRITES.has(command)) conflicts.write(args.input as Operation);
        if (command !== 'TransactWriteItemsCommand') return next(args);
        const { TransactItems } = args.input as { TransactItems: Record<string, Operation>[] };
        return conflicts.transact(TransactItems, () => next(args));
      },
      { step: 'initialize', name: 'transactionConflicts' },
    );
  }
  return conflicts.seen;
}
