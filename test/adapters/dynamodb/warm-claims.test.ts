/**
 * docs/state.md, "Warm claims": a controller container keeps the claims between its passes and
 * reads one item instead of scanning, only while no one else can have written one. For random
 * sequences of its own passes and writes, other containers' passes, the interruption function's
 * and the API's writes and rescans coming due, every list the warm store answers equals a fresh
 * scan of the table.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDynamoDbStateStore } from '../../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables, type StateTableNames } from '../../../functions/adapters/dynamodb/tables.ts';
import type { LeaseGrant } from '../../../functions/domain/state/lease.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type { StateStore } from '../../../functions/ports/state-store.ts';
import { aNewNodeClaim, secondsAfter, T0 } from '../../contracts/state-fixtures.ts';
import { describeStateStoreContract } from '../../contracts/state-store.contract.ts';
import { makeLocalClient, useDynamoDbLocal } from '../../support/dynamodb-local.ts';

const endpoint = useDynamoDbLocal();
let client: DynamoDBClient | undefined;
let tableSets = 0;

afterAll(() => client?.destroy());

interface Stores {
  /** The controller's container: claims kept between its passes. */
  readonly warm: StateStore;
  /** Anyone else: the interruption function, the API, another container, a fresh scan. */
  readonly cold: StateStore;
  /** Scans of the claims table the warm store sent. */
  readonly scans: () => number;
  /** Moves the clock the rescan interval is measured by. */
  readonly advance: (ms: number) => void;
}

async function stores(): Promise<Stores> {
  client ??= makeLocalClient(endpoint());
  tableSets += 1;
  const tables: StateTableNames = {
    nodeClaims: `warm-claims-${process.pid}-${tableSets}`,
    state: `warm-state-${process.pid}-${tableSets}`,
  };
  await createTables(client, tables, { timeToLive: false });
  // A client of its own, so that the scan counter sees only the warm store's requests.
  const own = DynamoDBDocumentClient.from(makeLocalClient(endpoint()));
  let scans = 0;
  own.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'ScanCommand') scans += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countScans' },
  );
  let nowMs = 0;
  const warm = makeDynamoDbStateStore({
    client: own,
    tables,
    warmClaims: { nowMs: () => nowMs },
  });
  const cold = makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
  return {
    warm,
    cold,
    scans: () => scans,
    advance: (ms) => {
      nowMs += ms;
    },
  };
}

describeStateStoreContract('DynamoDB, claims kept warm', async () => (await stores()).warm);

/** One pass of the warm container: take the lease, list, let `work` write, release. */
async function pass(
  store: StateStore,
  at: Date,
  work: (grant: LeaseGrant) => Promise<void> = async () => undefined,
) {
  const grant = await store.lease.acquire(`pass-${at.getTime()}`, at, 60);
  if (grant === undefined) throw new Error('the lease was held');
  try {
    const claims = await store.nodeClaims.list();
    await work(grant);
    return claims;
  } finally {
    await store.lease.release(grant);
  }
}

describe('warm claims', () => {
  it('reads the claims revision instead of scanning when only its own passes wrote', async () => {
    // Prepare
    const { warm, cold, scans } = await stores();
    await cold.nodeClaims.create(aNewNodeClaim({ name: 'default-a' }));
    await pass(warm, T0, async (fence) => {
      const created = await warm.nodeClaims.create(aNewNodeClaim({ name: 'default-b' }), { fence });
      await warm.nodeClaims.update({ ...created, phase: 'Launched' }, { fence });
      await warm.nodeClaims.delete('default-a', { fence });
    });
    // Act
    const listed = await pass(warm, secondsAfter(T0, 10));
    // Assess
    expect(scans()).toBe(1);
    expect(listed).toEqual(await cold.nodeClaims.list());
    expect(listed.map((c) => [c.name, c.phase])).toEqual([['default-b', 'Launched']]);
  });

  it.each([
    [
      'the interruption function marked a claim',
      async ({ cold }: Stores) => {
        const [claim] = await cold.nodeClaims.list();
        if (claim !== undefined) await cold.nodeClaims.update({ ...claim, phase: 'Registered' });
      },
    ],
    [
      'another container ran a pass',
      async ({ cold }: Stores) => {
        await pass(cold, secondsAfter(T0, 5), async (fence) => {
          await cold.nodeClaims.create(aNewNodeClaim({ name: 'default-c' }), { fence });
        });
      },
    ],
    [
      'five minutes went by',
      async ({ advance }: Stores) => {
        advance(5 * 60_000);
      },
    ],
  ])('scans again when %s', async (_, meanwhile) => {
    // Prepare
    const s = await stores();
    await s.cold.nodeClaims.create(aNewNodeClaim({ name: 'default-a' }));
    await pass(s.warm, T0);
    await meanwhile(s);
    // Act
    const listed = await pass(s.warm, secondsAfter(T0, 10));
    // Assess
    expect(s.scans()).toBe(2);
    expect(listed).toEqual(await s.cold.nodeClaims.list());
  });

  it('scans again after one of its writes failed', async () => {
    // Prepare
    const { warm, cold, scans } = await stores();
    const claim = await cold.nodeClaims.create(aNewNodeClaim({ name: 'default-a' }));
    await pass(warm, T0, async (fence) => {
      await warm.nodeClaims.update({ ...claim, version: 7 }, { fence }).catch(() => undefined);
    });
    // Act
    await pass(warm, secondsAfter(T0, 10));
    // Assess
    expect(scans()).toBe(2);
  });

  it('scans every list made outside a lease, as a cold store does', async () => {
    // Prepare
    const { warm, scans } = await stores();
    await pass(warm, T0);
    // Act
    await warm.nodeClaims.list();
    await warm.nodeClaims.list();
    // Assess
    expect(scans()).toBe(3);
  });
});

type Step =
  /** The warm container's pass: it lists, then creates, advances or deletes a claim, fenced. */
  | {
      readonly kind: 'pass';
      readonly claim: number;
      readonly write: 'create' | 'advance' | 'delete';
    }
  /** The interruption function or the API changes a claim, unfenced. */
  | { readonly kind: 'mark'; readonly claim: number }
  /** Another container's pass creates a claim. */
  | { readonly kind: 'other'; readonly claim: number }
  /** A pass of the warm container whose write loses to the interruption function's. */
  | { readonly kind: 'lose'; readonly claim: number }
  | { readonly kind: 'rescanDue' };

const claimIndex = fc.nat(3);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pass'),
      claim: claimIndex,
      write: fc.constantFrom('create', 'advance', 'delete'),
    }),
  },
  fc.record({ kind: fc.constantFrom('mark', 'other', 'lose'), claim: claimIndex }),
  fc.constant({ kind: 'rescanDue' } as const),
);

const nameOf = (i: number) => `default-${String(i).padStart(5, '0')}`;

/** The claim as the interruption function marks it, if it exists. */
async function mark(store: StateStore, name: string): Promise<void> {
  const found = await store.nodeClaims.get(name);
  if (found !== undefined) await store.nodeClaims.update({ ...found, phase: 'Registered' });
}

/** What the warm pass writes for a step, with the claims it listed; failures are the pass's. */
function passWrite(
  s: Stores,
  st: Extract<Step, { kind: 'pass' | 'lose' }>,
  listed: readonly NodeClaimRecord[],
  fence: LeaseGrant,
): Promise<unknown> {
  const name = nameOf(st.claim);
  const known = listed.find((c) => c.name === name);
  const { nodeClaims } = s.warm;
  if (st.kind === 'lose' || st.write === 'advance') {
    if (known === undefined) return Promise.resolve();
    const marked = st.kind === 'lose' ? mark(s.cold, name) : Promise.resolve();
    return marked.then(() => nodeClaims.update({ ...known, phase: 'Launched' }, { fence }));
  }
  if (st.write === 'delete') return nodeClaims.delete(name, { fence });
  return known === undefined
    ? nodeClaims.create(aNewNodeClaim({ name }), { fence })
    : Promise.resolve();
}

/** What the warm store listed in a pass, and what a fresh scan listed right after. */
interface Listed {
  readonly warm: readonly NodeClaimRecord[];
  readonly fresh: readonly NodeClaimRecord[];
}

/** Plays one step; resolves with the two lists when the step was the warm container's pass. */
async function play(s: Stores, st: Step, at: Date): Promise<Listed | undefined> {
  if (st.kind === 'rescanDue') s.advance(5 * 60_000);
  if (st.kind === 'mark') await mark(s.cold, nameOf(st.claim));
  if (st.kind === 'other') {
    await pass(s.cold, at, async (fence) => {
      const created = s.cold.nodeClaims.create(aNewNodeClaim({ name: nameOf(st.claim) }), {
        fence,
      });
      await created.catch(() => undefined);
    });
  }
  if (st.kind !== 'pass' && st.kind !== 'lose') return undefined;
  let listed: Listed = { warm: [], fresh: [] };
  await pass(s.warm, at, async (fence) => {
    const warm = await s.warm.nodeClaims.list();
    listed = { warm, fresh: await s.cold.nodeClaims.list() };
    await passWrite(s, st, warm, fence).catch(() => undefined);
  });
  return listed;
}

describe('warm claims, for any sequence of writers', () => {
  it('list what a fresh scan lists, pass after pass', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        // Prepare
        const s = await stores();
        let at = T0;
        for (const st of steps) {
          at = secondsAfter(at, 1);
          // Act
          const listed = await play(s, st, at);
          // Assess
          if (listed !== undefined) expect(listed.warm).toEqual(listed.fresh);
        }
        expect(await pass(s.warm, secondsAfter(at, 1))).toEqual(await s.cold.nodeClaims.list());
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
