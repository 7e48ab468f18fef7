/**
 * NodeClaims in their own table, keyed by name. Every write is a TransactWriteItems of two parts,
 * both committed or neither. A fenced write first checks that the lease item still carries the
 * writer's fencing token, then writes the claim (docs/state.md, "Fencing"); any other write — the
 * interruption function's, the API's — writes the claim, then adds one to the claims revision,
 * so a warm controller knows a claim changed that no pass of its wrote (docs/state.md, "Warm
 * claims"). Every fenced write of a pass reads the one lease item, and every other write updates
 * the one revision item, so concurrent writes would cancel one another with TransactionConflict:
 * the store sends its transactions one at a time, the fenced writes that wait for one gathered
 * into the next (fenced-writes.ts). Another writer's transaction can still meet one; such a
 * write wrote nothing and is sent again, a few times at most.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';
import { INSTANCE_ID_INDEX } from '../../contract/state-tables.ts';
import type { Fence } from '../../domain/state/lease.ts';
import type {
  NewNodeClaimRecord,
  NodeClaimPhase,
  NodeClaimRecord,
} from '../../domain/state/node-claim-record.ts';
import { byName } from '../../domain/state/order.ts';
import { ConflictError, NameTakenError, NotFoundError } from '../../ports/errors.ts';
import type { ClaimDeletion, FencedWrite, NodeClaimStore } from '../../ports/state-store.ts';
import { admitsFence, hasVersion, isGoneOrHasVersion, isNew } from './conditions.ts';
import { sentAgainOnConflict } from './conflict-retries.ts';
import { failedAt, isMissingItemFailure, toPortError } from './errors.ts';
import { type ClaimWrite, FencedWrites, type TransactItem } from './fenced-writes.ts';
import { CLAIMS_REVISION_KEY, ClaimAttribute, LEASE_KEY, StateAttribute } from './keys.ts';
import { fromClaimItem, toClaimItem } from './mappers.ts';
import { type DocumentClient, type Item, scanAll } from './pages.ts';
import type { StateTableNames } from './tables.ts';

interface WriteAttempt {
  readonly doing: string;
  readonly write: ClaimWrite;
  readonly fence: Fence | undefined;
  /** The write asked for the old item on a failed condition: none back means it is gone. */
  readonly missingIsNotFound: boolean;
  /** The write's only condition is that no claim has its name: failing it means the name is taken. */
  readonly createsName?: boolean;
}

export class DynamoDbNodeClaimStore implements NodeClaimStore {
  readonly #client: DocumentClient;
  readonly #tables: StateTableNames;
  /**
   * DynamoDB cancels a transaction that meets one still in progress on any of its items, and
   * this store's transactions all meet on the lease item (fenced) or the revision item (the
   * rest): sent side by side, as a pass launching 32 claims at once would, about half of them
   * were cancelled six times over. Sent one at a time, none meets another of this container's.
   */
  readonly #oneAtATime = pLimit(1);
  readonly #fenced = new FencedWrites(
    async (items) => {
      const command = new TransactWriteCommand({ TransactItems: items });
      await this.#oneAtATime(() => this.#client.send(command));
    },
    (fence) => this.#leaseAdmits(fence),
  );

  constructor(client: DocumentClient, tables: StateTableNames) {
    this.#client = client;
    this.#tables = tables;
  }

  async create(claim: NewNodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    const item = toClaimItem({ ...claim, version: 1 });
    const put = { TableName: this.#tables.nodeClaims, Item: item, ...isNew(ClaimAttribute.name) };
    const doing = `creating node claim ${claim.name}`;
    await this.#write({
      doing,
      write: { Put: put },
      fence: options.fence,
      missingIsNotFound: false,
      createsName: true,
    });
    return fromClaimItem(item);
  }

  async get(name: string): Promise<NodeClaimRecord | undefined> {
    try {
      const { Item } = await this.#client.send(
        new GetCommand({ TableName: this.#tables.nodeClaims, Key: { name }, ConsistentRead: true }),
      );
      return Item === undefined ? undefined : fromClaimItem(Item);
    } catch (err) {
      throw toPortError(err, `reading node claim ${name}`);
    }
  }

  async update(claim: NodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    const item = toClaimItem({ ...claim, version: claim.version + 1 });
    const put = {
      TableName: this.#tables.nodeClaims,
      Item: item,
      ...hasVersion(ClaimAttribute.version, claim.version),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
    const doing = `updating node claim ${claim.name}`;
    await this.#write({
      doing,
      write: { Put: put },
      fence: options.fence,
      missingIsNotFound: true,
    });
    return fromClaimItem(item);
  }

  async delete(name: string, options: ClaimDeletion = {}): Promise<void> {
    const { expectedVersion } = options;
    const condition =
      expectedVersion === undefined
        ? {}
        : isGoneOrHasVersion(ClaimAttribute.name, ClaimAttribute.version, expectedVersion);
    const del = { TableName: this.#tables.nodeClaims, Key: { name }, ...condition };
    const doing = `deleting node claim ${name}`;
    await this.#write({
      doing,
      write: { Delete: del },
      fence: options.fence,
      missingIsNotFound: false,
    });
  }

  async list(): Promise<readonly NodeClaimRecord[]> {
    return this.#scan('listing node claims');
  }

  async listByPhase(phase: NodeClaimPhase): Promise<readonly NodeClaimRecord[]> {
    return this.#scan(`listing node claims in phase ${phase}`, ClaimAttribute.phase, phase);
  }

  async listByPool(nodePool: string): Promise<readonly NodeClaimRecord[]> {
    return this.#scan(`listing node claims of pool ${nodePool}`, ClaimAttribute.nodePool, nodePool);
  }

  /**
   * How many claim writes not fenced by the lease there have been (docs/state.md, "Warm
   * claims"); 0 before the first. Strongly consistent.
   */
  async claimsRevision(): Promise<number> {
    try {
      const { Item } = await this.#client.send(
        new GetCommand({
          TableName: this.#tables.state,
          Key: CLAIMS_REVISION_KEY,
          ConsistentRead: true,
        }),
      );
      return Number(Item?.[StateAttribute.revision] ?? 0);
    } catch (err) {
      throw toPortError(err, 'reading the claims revision');
    }
  }

  #leaseAdmits(fence: Fence): NonNullable<TransactItem['ConditionCheck']> {
    return { TableName: this.#tables.state, Key: LEASE_KEY, ...admitsFence(fence) };
  }

  #countUnfenced(): NonNullable<TransactItem['Update']> {
    return {
      TableName: this.#tables.state,
      Key: CLAIMS_REVISION_KEY,
      UpdateExpression: 'ADD #revision :one',
      ExpressionAttributeNames: { '#revision': StateAttribute.revision },
      ExpressionAttributeValues: { ':one': 1 },
    };
  }

  async findByInstanceId(instanceId: string): Promise<NodeClaimRecord | undefined> {
    const names = await this.#namesByInstanceId(instanceId);
    const claims = await Promise.all(names.map((name) => this.get(name)));
    // The index is eventually consistent: trust only claims that, read fresh, still carry the id.
    return claims
      .filter((claim): claim is NodeClaimRecord => claim?.instanceId === instanceId)
      .sort(byName)[0];
  }

  async #namesByInstanceId(instanceId: string): Promise<string[]> {
    try {
      const { Items } = await this.#client.send(
        new QueryCommand({
          TableName: this.#tables.nodeClaims,
          IndexName: INSTANCE_ID_INDEX,
          KeyConditionExpression: '#instanceId = :instanceId',
          ExpressionAttributeNames: { '#instanceId': ClaimAttribute.instanceId },
          ExpressionAttributeValues: { ':instanceId': instanceId },
        }),
      );
      return (Items ?? []).map((item) => String(item[ClaimAttribute.name]));
    } catch (err) {
      throw toPortError(err, `finding the node claim of instance ${instanceId}`);
    }
  }

  /** A strongly consistent Scan: claims are the table's only items, so nothing is read in vain. */
  async #scan(doing: string, field?: string, value?: string): Promise<readonly NodeClaimRecord[]> {
    const filter =
      field === undefined
        ? {}
        : {
            FilterExpression: '#field = :value',
            ExpressionAttributeNames: { '#field': field },
            ExpressionAttributeValues: { ':value': value },
          };
    let items: Item[];
    try {
      items = await scanAll(this.#client, {
        TableName: this.#tables.nodeClaims,
        ConsistentRead: true,
        ...filter,
      });
    } catch (err) {
      throw toPortError(err, doing);
    }
    return items.map(fromClaimItem).sort(byName);
  }

  async #write(attempt: WriteAttempt): Promise<void> {
    try {
      await this.#send(attempt.write, attempt.fence);
    } catch (err) {
      throw classifyWriteError(err, attempt);
    }
  }

  /**
   * The fence is checked on the lease item itself, inside the write's transaction: no condition
   * on the claim alone could refuse a stale holder's create. So every fenced write reads the one
   * item (fenced-writes.ts) and every other write updates the revision item: sent one at a time,
   * and again when another writer's transaction cancelled it.
   */
  async #send(write: ClaimWrite, fence: Fence | undefined): Promise<void> {
    if (fence !== undefined) return this.#fenced.write(write, fence);
    const items: TransactItem[] = [write, { Update: this.#countUnfenced() }];
    const command = new TransactWriteCommand({ TransactItems: items });
    await sentAgainOnConflict(() => this.#oneAtATime(() => this.#client.send(command)));
  }
}

function classifyWriteError(err: unknown, attempt: WriteAttempt): unknown {
  const { doing, fence } = attempt;
  if (fence !== undefined && failedAt(err, 0)) {
    return new ConflictError(`${doing}: fencing token ${fence.fencingToken} is stale`, {
      cause: err,
    });
  }
  const writeIndex = fence === undefined ? 0 : 1;
  if (attempt.createsName === true && failedAt(err, writeIndex)) {
    return new NameTakenError(`${doing}: the name is taken`, { cause: err });
  }
  if (attempt.missingIsNotFound && isMissingItemFailure(err, writeIndex)) {
    return new NotFoundError(`${doing}: it does not exist`, { cause: err });
  }
  return toPortError(err, doing);
}
