/**
 * DynamoDB's transaction conflicts in front of DynamoDB Local, which runs transactions one at a
 * time and never answers with them: the deployed twin's rule (simulator/aws/dynamodb/
 * transaction-conflicts.ts), put on the SDK clients' middleware stacks. Its refusals are thrown
 * as the SDK's own exceptions, as the SDK reads DynamoDB's answer.
 */
import {
  type CancellationReason,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StateTableNames } from '../../functions/adapters/dynamodb/tables.ts';
import { CLAIM_NAME, STATE_PK, STATE_SK } from '../../functions/contract/state-tables.ts';
import {
  type Refusal,
  TransactionConflicts,
} from '../../simulator/aws/dynamodb/transaction-conflicts.ts';

export interface Contention {
  /** TransactWriteItems sent, cancelled ones included. */
  sends: number;
  /** Transactions cancelled for meeting another in progress. */
  conflicts: number;
  /** Transactions in progress now. */
  inProgress(): number;
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const TARGET_PREFIX = 'DynamoDB_20120810.';

/** The SDK's exception for DynamoDB's answer. */
function thrown(refusal: Refusal): Error {
  const body = JSON.parse(refusal.body) as {
    __type: string;
    Message?: string;
    message?: string;
    CancellationReasons?: CancellationReason[];
  };
  const $metadata = { httpStatusCode: refusal.status };
  if (body.__type.endsWith('#TransactionConflictException')) {
    return new TransactionConflictException({ message: body.message ?? '', $metadata });
  }
  return new TransactionCanceledException({
    message: body.Message ?? '',
    $metadata,
    ...(body.CancellationReasons === undefined
      ? {}
      : { CancellationReasons: body.CancellationReasons }),
  });
}

/** The rule, counting what it sees of the transactions. */
class Contended {
  readonly #conflicts: TransactionConflicts;
  readonly #hold: (seen: Contention) => Promise<void>;
  #inProgress = 0;
  readonly seen: Contention = { sends: 0, conflicts: 0, inProgress: () => this.#inProgress };

  constructor(tables: StateTableNames, hold: (seen: Contention) => Promise<void>) {
    this.#conflicts = new TransactionConflicts(
      new Map([
        [tables.nodeClaims, [CLAIM_NAME]],
        [tables.state, [STATE_PK, STATE_SK]],
      ]),
    );
    this.#hold = hold;
  }

  /** Sends the call on, unless DynamoDB would refuse it; a transaction holds its items meanwhile. */
  async send<T>(command: string, input: unknown, next: () => Promise<T>): Promise<T> {
    const target = `${TARGET_PREFIX}${command.replace(/Command$/, '')}`;
    if (!this.#conflicts.concerns(target)) return next();
    const transaction = target.endsWith('.TransactWriteItems');
    if (transaction) this.seen.sends += 1;
    const admission = this.#conflicts.admit(target, JSON.stringify(input));
    if ('refusal' in admission) {
      if (transaction) this.seen.conflicts += 1;
      throw thrown(admission.refusal);
    }
    // A single-item write holds nothing: only a transaction is in progress on its items.
    if (!transaction) return next();
    this.#inProgress += 1;
    try {
      await this.#hold(this.seen);
      return await next();
    } finally {
      this.#inProgress -= 1;
      admission.release();
    }
  }
}

/**
 * Puts the rule in front of every client given, shared among them, for the state tables named:
 * each transaction is in progress until `hold` resolves (5 ms by default) and then for as long
 * as Local takes, as a real one holds its items for milliseconds.
 */
export function conflictingAsDynamoDbDoes(
  clients: readonly DynamoDBDocumentClient[],
  tables: StateTableNames,
  hold: (seen: Contention) => Promise<void> = () => pause(5),
): Contention {
  const contended = new Contended(tables, hold);
  for (const documents of clients) {
    documents.middlewareStack.add(
      (next, context) => (args) =>
        contended.send(context.commandName ?? '', args.input, () => next(args)),
      { step: 'initialize', name: 'transactionConflicts' },
    );
  }
  return contended.seen;
}
