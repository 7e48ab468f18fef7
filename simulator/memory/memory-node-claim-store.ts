/**
 * NodeClaims in a Map, with the DynamoDB adapter's semantics: conditional create, version-checked
 * update, idempotent delete, fenced writes refused once a newer lease exists. The fence is
 * checked first, as the lease check comes first in the DynamoDB transaction.
 */
import type {
  NewNodeClaimRecord,
  NodeClaimPhase,
  NodeClaimRecord,
} from '../../functions/domain/state/node-claim-record.ts';
import { byName } from '../../functions/domain/state/order.ts';
import { ConflictError, NameTakenError, NotFoundError } from '../../functions/ports/errors.ts';
import type {
  ClaimDeletion,
  FencedWrite,
  NodeClaimStore,
} from '../../functions/ports/state-store.ts';
import { copyAsStored, deepFreeze } from './copy.ts';
import type { MemoryLeaseStore } from './memory-lease-store.ts';

export class MemoryNodeClaimStore implements NodeClaimStore {
  readonly #claims = new Map<string, NodeClaimRecord>();
  readonly #lease: MemoryLeaseStore;

  constructor(lease: MemoryLeaseStore) {
    this.#lease = lease;
  }

  async create(claim: NewNodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    const doing = `creating node claim ${claim.name}`;
    this.#lease.checkFence(options.fence, doing);
    if (this.#claims.has(claim.name)) throw new NameTakenError(`${doing}: it already exists`);
    return this.#store({ ...claim, version: 1 });
  }

  async get(name: string): Promise<NodeClaimRecord | undefined> {
    return this.#claims.get(name);
  }

  async update(claim: NodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    const doing = `updating node claim ${claim.name}`;
    this.#lease.checkFence(options.fence, doing);
    const current = this.#claims.get(claim.name);
    if (current === undefined) throw new NotFoundError(`${doing}: it does not exist`);
    if (current.version !== claim.version) {
      throw new ConflictError(`${doing}: version is ${current.version}, not ${claim.version}`);
    }
    return this.#store({ ...claim, version: claim.version + 1 });
  }

  async delete(name: string, options: ClaimDeletion = {}): Promise<void> {
    const doing = `deleting node claim ${name}`;
    this.#lease.checkFence(options.fence, doing);
    const current = this.#claims.get(name);
    if (current === undefined) return;
    if (options.expectedVersion !== undefined && current.version !== options.expectedVersion) {
      throw new ConflictError(
        `${doing}: version is ${current.version}, not ${options.expectedVersion}`,
      );
    }
    this.#claims.delete(name);
  }

  async list(): Promise<readonly NodeClaimRecord[]> {
    return this.#select(() => true);
  }

  async listByPhase(phase: NodeClaimPhase): Promise<readonly NodeClaimRecord[]> {
    return this.#select((claim) => claim.phase === phase);
  }

  async listByPool(nodePool: string): Promise<readonly NodeClaimRecord[]> {
    return this.#select((claim) => claim.nodePool === nodePool);
  }

  async findByInstanceId(instanceId: string): Promise<NodeClaimRecord | undefined> {
    return (await this.#select((claim) => claim.instanceId === instanceId))[0];
  }

  #select(keep: (claim: NodeClaimRecord) => boolean): readonly NodeClaimRecord[] {
    return [...this.#claims.values()].filter(keep).sort(byName);
  }

  /**
   * Stored as DynamoDB would hand it back, and frozen: a write replaces a claim, never changes it,
   * so reads share the stored claim rather than copy it (every pass lists every claim).
   */
  #store(claim: NodeClaimRecord): NodeClaimRecord {
    const stored = deepFreeze(copyAsStored(claim));
    this.#claims.set(claim.name, stored);
    return stored;
  }
}
