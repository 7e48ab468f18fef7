/**
 * A container's fenced claim writes, sent as DynamoDB lets them through (docs/state.md,
 * "Fencing"). Every one checks the lease item inside its transaction, and DynamoDB cancels a
 * transaction that meets another in progress on an item: sent side by side, a pass's launches
 * cancelled one another. So one transaction is in progress at a time, and it carries the lease
 * check once with every write that waited for it (one per claim, up to `MAX_WRITES`): a pass
 * writing 32 claims at once sends three transactions (the first write alone, then the 31 that
 * waited for it, 25 and 6), not 32.
 *
 * A cancelled transaction names a reason for each part. A write whose own part failed, or which
 * the lease check failed, is answered with the cancellation as if it had been sent alone (the
 * check's reason and its own), so the store reads it as before; a write cancelled only for
 * another's part wrote nothing and is sent in the next transaction. One that another writer's
 * transaction cancelled is sent again after a jittered wait, a few times at most.
 */
import {
  type CancellationReason as SdkReason,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Fence } from '../../domain/state/lease.ts';
import { backOff, CONFLICT_ATTEMPTS } from './conflict-retries.ts';
import {
  type CancellationReason,
  cancellationReasons,
  isTransientTransactionConflict,
} from './errors.ts';
import { ClaimAttribute } from './keys.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type ClaimWrite =
  | Required<Pick<TransactItem, 'Put'>>
  | Required<Pick<TransactItem, 'Delete'>>;

/**
 * Writes per transaction. DynamoDB takes 100 parts and 4 MB; a claim's item holds up to 600
 * instance type names, so 25 keeps a transaction well under the size.
 */
export const MAX_WRITES = 25;

interface Waiting {
  readonly write: ClaimWrite;
  readonly fence: Fence;
  /** The claim's name: a transaction may hold one part per item. */
  readonly claim: string;
  /** Sends another writer's transaction cancelled. */
  conflicts: number;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

function claimOf(write: ClaimWrite): string {
  const key = 'Put' in write ? write.Put.Item : write.Delete.Key;
  return String(key?.[ClaimAttribute.name]);
}

/** The cancellation of a transaction, as the one of [lease check, this write] would read. */
function asSentAlone(
  err: unknown,
  check: CancellationReason,
  own: CancellationReason,
): TransactionCanceledException {
  const { message, $metadata } = err as TransactionCanceledException;
  return new TransactionCanceledException({
    message,
    $metadata,
    CancellationReasons: [check, own] as SdkReason[],
  });
}

export class FencedWrites {
  readonly #send: (items: TransactItem[]) => Promise<void>;
  readonly #leaseAdmits: (fence: Fence) => NonNullable<TransactItem['ConditionCheck']>;
  #queue: Waiting[] = [];
  #sending = false;

  constructor(
    send: (items: TransactItem[]) => Promise<void>,
    leaseAdmits: (fence: Fence) => NonNullable<TransactItem['ConditionCheck']>,
  ) {
    this.#send = send;
    this.#leaseAdmits = leaseAdmits;
  }

  /** Resolves once the write is committed; rejects with DynamoDB's error as sent alone. */
  write(write: ClaimWrite, fence: Fence): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ write, fence, claim: claimOf(write), conflicts: 0, resolve, reject });
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    try {
      while (this.#queue.length > 0) await this.#sendOne(this.#nextBatch());
    } finally {
      this.#sending = false;
    }
  }

  /** The oldest write, and those after it under the same fence, one per claim. */
  #nextBatch(): Waiting[] {
    const [first] = this.#queue;
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    const claims = new Set<string>();
    for (const waiting of this.#queue) {
      const fits =
        batch.length < MAX_WRITES &&
        waiting.fence.fencingToken === first?.fence.fencingToken &&
        !claims.has(waiting.claim);
      if (fits) {
        batch.push(waiting);
        claims.add(waiting.claim);
      } else rest.push(waiting);
    }
    this.#queue = rest;
    return batch;
  }

  async #sendOne(batch: readonly Waiting[]): Promise<void> {
    const [first] = batch;
    if (first === undefined) return;
    try {
      await this.#send([
        { ConditionCheck: this.#leaseAdmits(first.fence) },
        ...batch.map((waiting) => waiting.write),
      ]);
      for (const waiting of batch) waiting.resolve();
    } catch (err) {
      await this.#settle(batch, err);
    }
  }

  /** Answers the writes the cancellation is about; the rest go first in the next transaction. */
  async #settle(batch: readonly Waiting[], err: unknown): Promise<void> {
    const [check, ...parts] = cancellationReasons(err);
    if (check === undefined || parts.length !== batch.length) {
      for (const waiting of batch) waiting.reject(err);
      return;
    }
    const again: Waiting[] = [];
    let conflicts = 0;
    batch.forEach((waiting, i) => {
      const alone = asSentAlone(err, check, parts[i] ?? {});
      const codes = [check.Code ?? 'None', parts[i]?.Code ?? 'None'];
      if (isTransientTransactionConflict(alone)) {
        waiting.conflicts += 1;
        conflicts = Math.max(conflicts, waiting.conflicts);
        if (waiting.conflicts >= CONFLICT_ATTEMPTS) waiting.reject(alone);
        else again.push(waiting);
      } else if (codes.every((code) => code === 'None')) again.push(waiting);
      else waiting.reject(alone);
    });
    this.#queue = [...again, ...this.#queue];
    if (conflicts > 0) await backOff(conflicts);
  }
}
