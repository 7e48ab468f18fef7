/**
 * "No disruption budget exceeded" as a run judges it from the ledger's samples after each pass
 * (docs/design.md §5.3): voluntary disruption is held to its pool's budget when it takes more of
 * the pool, with every node already going counted against it, an interrupted one as much as a
 * consolidated one (core: disruption/helpers.go BuildDisruptionBudgetMapping, run by
 * validation.go validateCandidates); a command under way finishes when an interruption shrinks
 * the pool meanwhile, as Karpenter's queue finishes it (core: disruption/queue.go
 * waitOrTerminate, aws: interruption/utils.go deleteNodeClaim, which no budget holds).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ClaimDisruption,
  NodeClaimPhase,
  type NodeClaimRecord,
} from '../../../functions/domain/state/node-claim-record.ts';
import type { StateStore } from '../../../functions/ports/state-store.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/server.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { DisruptionLedger } from '../../../simulator/run/disruption-ledger.ts';
import { checkInvariants } from '../../../simulator/run/invariants.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aMinimalNodeClass, aMinimalNodePool } from '../../support/karpenter-documents.ts';
import { storeDocuments } from '../../support/stored-documents.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const HOUR_AGO = new Date(T0 - 3_600_000).toISOString();
/** Karpenter's minimal NodePool: no budgets, so `nodes: 10%`. */
const POOL = aMinimalNodePool();

/** A pool of claims and their Nodes, changed pass by pass as the controller and EC2 change them. */
class PoolUnderWatch {
  readonly claims = new Map<string, NodeClaimRecord>();
  readonly ledger: DisruptionLedger;
  #ms = T0;

  constructor(
    readonly server: FakeApiServer,
    readonly state: StateStore,
  ) {
    this.ledger = new DisruptionLedger(server, state, () => new Date(this.#ms));
  }

  /** `count` claims Initialized an hour ago on Ready nodes: `node-01`, `node-02`, … */
  async running(count: number): Promise<void> {
    for (let i = 1; i <= count; i++) await this.#launch(`node-${String(i).padStart(2, '0')}`, true);
  }

  async #launch(name: string, initialized: boolean): Promise<void> {
    const timestamps = initialized
      ? { Pending: HOUR_AGO, Launched: HOUR_AGO, Initialized: HOUR_AGO }
      : { Pending: HOUR_AGO, Launched: HOUR_AGO };
    const claim = await this.state.nodeClaims.create({
      ...aNewNodeClaim({ name, nodePool: POOL.metadata.name }),
      phase: initialized ? NodeClaimPhase.initialized : NodeClaimPhase.launched,
      nodeName: name,
      timestamps,
    });
    this.claims.set(name, claim);
    const conditions = [{ type: 'Ready', status: 'True' }];
    this.server.store.create('nodes', { metadata: { name }, status: { conditions } });
  }

  async #update(name: string, change: Partial<NodeClaimRecord>): Promise<void> {
    const claim = this.claims.get(name);
    if (claim === undefined) throw new Error(`no claim ${name}`);
    this.claims.set(name, await this.state.nodeClaims.update({ ...claim, ...change }));
  }

  #disruption(reason: string, extra: Partial<ClaimDisruption> = {}): ClaimDisruption {
    return { reason, message: reason, decidedAt: new Date(this.#ms).toISOString(), ...extra };
  }

  /** Consolidation's command starts: the candidates tainted, their replacement launched. */
  async replace(candidates: readonly string[], replacement: string): Promise<void> {
    await this.#launch(replacement, false);
    const replacements = [replacement];
    const disruption = this.#disruption('Underutilized', { stage: 'Replacing', replacements });
    for (const name of candidates) await this.#update(name, { disruption });
  }

  /** The replacement came up: the command's candidates are marked for deletion. */
  async replaced(candidates: readonly string[], replacement: string): Promise<void> {
    await this.#update(replacement, { phase: NodeClaimPhase.initialized });
    for (const name of candidates)
      await this.#update(name, {
        phase: NodeClaimPhase.draining,
        disruption: this.#disruption('Underutilized'),
      });
  }

  /** The interruption function marks the claims of the instances EC2 reclaims. */
  async interrupt(names: readonly string[]): Promise<void> {
    for (const name of names)
      await this.#update(name, {
        phase: NodeClaimPhase.draining,
        disruption: this.#disruption('SpotInterrupted'),
      });
  }

  async terminating(names: readonly string[]): Promise<void> {
    for (const name of names) await this.#update(name, { phase: NodeClaimPhase.terminating });
  }

  async gone(names: readonly string[]): Promise<void> {
    for (const name of names) {
      await this.state.nodeClaims.delete(name);
      this.server.store.delete('nodes', name);
    }
  }

  /** One pass's worth of change, then the sample the run takes after each pass. */
  async pass(change: (pool: PoolUnderWatch) => Promise<void>): Promise<void> {
    this.#ms += 2_000;
    await change(this);
    await this.ledger.sampleBudgets();
  }

  budgetCheck() {
    const outcome = {
      pods: [],
      nodes: [],
      instances: [],
      terminations: [],
      claims: [],
      passes: [],
      unschedulable: new Map<string, string>(),
      removals: this.ledger.removals,
      budgets: this.ledger.budgets,
    };
    return checkInvariants(outcome).find((c) => c.name === 'no disruption budget exceeded');
  }
}

type Pass = (pool: PoolUnderWatch) => Promise<void>;

const CANDIDATES = ['node-06', 'node-11'];
const INTERRUPTED = ['node-01', 'node-02'];

describe('no disruption budget exceeded, judged pass by pass', () => {
  let server: FakeApiServer;
  beforeEach(async () => {
    server = await startFakeApiServer({ namespaces: ['default'] });
  });
  afterEach(async () => {
    await server.close();
  });

  it.each<{ name: string; passes: readonly Pass[]; held: boolean; detail: string }>([
    {
      name: 'holds when EC2 reclaims two nodes while a two-node replacement, started within 10% of 11, finishes',
      passes: [
        async () => undefined,
        (p) => p.replace(CANDIDATES, 'node-12'),
        (p) => p.interrupt(INTERRUPTED),
        (p) => p.replaced(CANDIDATES, 'node-12'),
        (p) => p.terminating(INTERRUPTED),
        async (p) => {
          await p.gone(INTERRUPTED);
          await p.terminating(CANDIDATES);
        },
      ],
      held: true,
      detail: "every start of voluntary disruption within its pool's budgets (1)",
    },
    {
      name: 'fails when a two-node replacement starts while two interrupted nodes of 11 are going',
      passes: [(p) => p.interrupt(INTERRUPTED), (p) => p.replace(CANDIDATES, 'node-12')],
      held: false,
      detail: 'took 2 more, 4 of 11 nodes going, 2 allowed',
    },
    {
      name: 'holds when one node is replaced while one interrupted node of 11 is going',
      passes: [(p) => p.interrupt(['node-01']), (p) => p.replace(['node-06'], 'node-12')],
      held: true,
      detail: "every start of voluntary disruption within its pool's budgets (1)",
    },
  ])('$name', async ({ passes, held, detail }) => {
    // Prepare
    const state = makeMemoryStateStore();
    await storeDocuments(state, [aMinimalNodeClass(), POOL]);
    const pool = new PoolUnderWatch(server, state);
    await pool.running(11);

    // Act
    for (const change of passes) await pool.pass(change);

    // Assess
    const check = pool.budgetCheck();
    expect(check?.held).toBe(held);
    expect(check?.detail).toContain(detail);
  });
});
