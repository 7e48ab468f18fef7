/**
 * The controller's claims kept between passes (docs/state.md, "Warm claims"; docs/design.md
 * §3.3.1). A pass needs every claim, read strongly consistent (§5.1), which cold is a Scan of the
 * whole claims table; a warm container keeps the claims its last pass left and reads one item
 * instead, the claims revision. The kept claims are the table's exactly when all of these hold,
 * and are scanned again otherwise:
 *
 * - this pass's lease is the one right after the pass that kept them (its fencing token is one
 *   more): no other pass ran in between, and only a pass holding the lease writes fenced;
 * - the claims revision is the one read with them: no write not fenced — the interruption
 *   function's, the API's, this pass's own status checks' — changed a claim since;
 * - every write this container made since succeeded, and is applied to them;
 * - they were scanned less than five minutes ago, a bound on what a writer that does not count
 *   (a function of an older release, during a deployment) can hide.
 *
 * Outside a held lease every read goes to the table, as before.
 */
import type {
  NewNodeClaimRecord,
  NodeClaimPhase,
  NodeClaimRecord,
} from '../../domain/state/node-claim-record.ts';
import { byName } from '../../domain/state/order.ts';
import type {
  ClaimDeletion,
  FencedWrite,
  LeaseStore,
  NodeClaimStore,
  StateStore,
} from '../../ports/state-store.ts';
import type { DynamoDbNodeClaimStore } from './dynamodb-node-claim-store.ts';

/** The longest a container trusts claims it did not scan, as informers resync. */
export const DEFAULT_RESCAN_MS = 5 * 60_000;

export interface WarmClaimsOptions {
  /** Claims are scanned again at least this often. @default 5 minutes */
  readonly rescanMs?: number;
  /** The clock the rescan interval is measured by. @default the wall clock */
  readonly nowMs?: () => number;
}

interface Kept {
  readonly claims: Map<string, NodeClaimRecord>;
  /** The claims revision read just before they were scanned. */
  readonly revision: number;
  readonly scannedMs: number;
}

/** What one container knows of the claims between its passes. */
class ClaimsKept {
  #kept: Kept | undefined;
  /** The fencing token of the last lease under which the kept claims were right. */
  #token: number | undefined;
  /** The token of the lease this container holds now, if it holds one. */
  held: number | undefined;
  readonly #rescanMs: number;
  readonly #nowMs: () => number;

  constructor(options: WarmClaimsOptions) {
    this.#rescanMs = options.rescanMs ?? DEFAULT_RESCAN_MS;
    this.#nowMs = options.nowMs ?? Date.now;
  }

  acquired(token: number): void {
    if (this.#token !== token - 1) this.forget();
    this.#token = token;
    this.held = token;
  }

  released(): void {
    this.held = undefined;
  }

  /** The kept claims, if they may stand for the table at this claims revision. */
  at(revision: number): Map<string, NodeClaimRecord> | undefined {
    const kept = this.#kept;
    const unbroken = this.held !== undefined && this.#token === this.held;
    if (kept === undefined || !unbroken || kept.revision !== revision) return undefined;
    return this.#nowMs() - kept.scannedMs < this.#rescanMs ? kept.claims : undefined;
  }

  scanned(claims: readonly NodeClaimRecord[], revision: number): void {
    if (this.held === undefined) return;
    this.#token = this.held;
    const byClaimName = new Map(claims.map((claim) => [claim.name, claim]));
    this.#kept = { claims: byClaimName, revision, scannedMs: this.#nowMs() };
  }

  /** A write of this container that succeeded: the kept claims follow it. */
  wrote(change: (claims: Map<string, NodeClaimRecord>) => void): void {
    if (this.#kept !== undefined) change(this.#kept.claims);
  }

  forget(): void {
    this.#kept = undefined;
  }
}

class WarmNodeClaimStore implements NodeClaimStore {
  readonly #table: DynamoDbNodeClaimStore;
  readonly #kept: ClaimsKept;

  constructor(table: DynamoDbNodeClaimStore, kept: ClaimsKept) {
    this.#table = table;
    this.#kept = kept;
  }

  async list(): Promise<readonly NodeClaimRecord[]> {
    if (this.#kept.held === undefined) return this.#table.list();
    const revision = await this.#table.claimsRevision();
    const kept = this.#kept.at(revision);
    if (kept !== undefined) return [...kept.values()].sort(byName);
    const claims = await this.#table.list();
    this.#kept.scanned(claims, revision);
    return claims;
  }

  create(claim: NewNodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    return this.#tracked(options, () => this.#table.create(claim, options));
  }

  update(claim: NodeClaimRecord, options: FencedWrite = {}): Promise<NodeClaimRecord> {
    return this.#tracked(options, () => this.#table.update(claim, options));
  }

  async delete(name: string, options: ClaimDeletion = {}): Promise<void> {
    await this.#tracked(options, async () => {
      await this.#table.delete(name, options);
      return name;
    });
  }

  get(name: string): Promise<NodeClaimRecord | undefined> {
    return this.#table.get(name);
  }

  listByPhase(phase: NodeClaimPhase): Promise<readonly NodeClaimRecord[]> {
    return this.#table.listByPhase(phase);
  }

  listByPool(nodePool: string): Promise<readonly NodeClaimRecord[]> {
    return this.#table.listByPool(nodePool);
  }

  findByInstanceId(instanceId: string): Promise<NodeClaimRecord | undefined> {
    return this.#table.findByInstanceId(instanceId);
  }

  /**
   * A fenced write that succeeds is applied to the kept claims (a record written, or a name
   * deleted); a failed one, or one not fenced (which moves the revision), forgets them.
   */
  async #tracked<T extends NodeClaimRecord | string>(
    options: FencedWrite,
    write: () => Promise<T>,
  ): Promise<T> {
    let written: T;
    try {
      written = await write();
    } catch (err) {
      this.#kept.forget();
      throw err;
    }
    if (options.fence === undefined) {
      this.#kept.forget();
    } else if (typeof written === 'string') {
      this.#kept.wrote((claims) => claims.delete(written));
    } else {
      this.#kept.wrote((claims) => claims.set(written.name, written));
    }
    return written;
  }
}

/** The lease as the container takes it, telling the kept claims each grant and release. */
function warmLease(lease: LeaseStore, kept: ClaimsKept): LeaseStore {
  return {
    acquire: async (...args) => {
      const grant = await lease.acquire(...args);
      if (grant !== undefined) kept.acquired(grant.fencingToken);
      return grant;
    },
    renew: (...args) => lease.renew(...args),
    isHeld: (...args) => lease.isHeld(...args),
    release: async (...args) => {
      kept.released();
      await lease.release(...args);
    },
  };
}

/** The state store with its claims kept between the passes of one container. */
export function withWarmClaims(
  state: StateStore,
  table: DynamoDbNodeClaimStore,
  options: WarmClaimsOptions = {},
): StateStore {
  const kept = new ClaimsKept(options);
  return {
    ...state,
    nodeClaims: new WarmNodeClaimStore(table, kept),
    lease: warmLease(state.lease, kept),
  };
}
