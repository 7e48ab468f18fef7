/**
 * The admission wake's window as a single item in the state table, shared by every relay
 * container (domain wake-window.ts). A call's turn is one conditional UpdateItem that opens a
 * window when the last one has closed; when one is open, the failed condition hands back the
 * window as stored (`ReturnValuesOnConditionCheckFailure`), and a second conditional UpdateItem
 * takes its delayed wake if nobody has. So a turn costs one or two writes and no read, and of
 * racing calls exactly one opens a window and exactly one takes its delayed wake. The item has no
 * TTL attribute: it is one item, overwritten by every window.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { openedWindow, type WakeTurn, type WakeWindow } from '../../domain/state/wake-window.ts';
import type { WakeWindowStore } from '../../ports/state-store.ts';
import { isDeferredWakeFree, isWakeWindowClosed } from './conditions.ts';
import { isConditionFailure, toPortError } from './errors.ts';
import { StateAttribute, WAKE_WINDOW_KEY } from './keys.ts';
import { fromWakeWindowAttributes } from './mappers.ts';
import type { DocumentClient } from './pages.ts';

export class DynamoDbWakeWindowStore implements WakeWindowStore {
  readonly #client: DocumentClient;
  readonly #tableName: string;

  constructor(client: DocumentClient, tableName: string) {
    this.#client = client;
    this.#tableName = tableName;
  }

  async takeTurn(now: Date, windowMs: number): Promise<WakeTurn> {
    const opened = openedWindow(now, windowMs);
    const open = await this.#open(opened, now);
    if (open === undefined) return { outcome: 'woke', window: opened };
    const taken = { ...open, deferredTaken: true };
    if (open.deferredTaken) return { outcome: 'covered', window: taken };
    // Lost to another call, or the window closed meanwhile and the next one is someone else's.
    return { outcome: (await this.#takeDeferred(open)) ? 'deferred' : 'covered', window: taken };
  }

  /** Undefined when this call opened `window`; else the window open at `now`, as stored. */
  async #open(window: WakeWindow, now: Date): Promise<WakeWindow | undefined> {
    const condition = isWakeWindowClosed(now);
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: WAKE_WINDOW_KEY,
          UpdateExpression: 'SET #endsAt = :endsAt, #deferredTaken = :deferredTaken',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: {
            ...condition.ExpressionAttributeNames,
            '#deferredTaken': StateAttribute.deferredTaken,
          },
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':endsAt': window.endsAt,
            ':deferredTaken': window.deferredTaken,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return undefined;
    } catch (err) {
      if (isConditionFailure(err))
        return fromWakeWindowAttributes((err as { Item?: unknown }).Item);
      throw toPortError(err, 'opening the wake window');
    }
  }

  /** Whether this call took the window's delayed wake. */
  async #takeDeferred(window: WakeWindow): Promise<boolean> {
    const condition = isDeferredWakeFree(window);
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: WAKE_WINDOW_KEY,
          UpdateExpression: 'SET #deferredTaken = :taken',
          ...condition,
          ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':taken': true },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw toPortError(err, 'taking the wake window’s delayed wake');
    }
  }
}
