/** Contract of the NodeClaim store: conditional create, versioned update, delete, queries. */
import { describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../functions/domain/state/node-claim-record.ts';
import { ConflictError, NameTakenError, NotFoundError } from '../../functions/ports/errors.ts';
import {
  aNewNodeClaim,
  race,
  rejectionOf,
  type StoreFactory,
  secondsAfter,
  T0,
} from './state-fixtures.ts';

const EMPTY = { reason: 'Empty', message: 'empty node', decidedAt: T0.toISOString() };

function launched(claim: NodeClaimRecord, instanceId: string): NodeClaimRecord {
  return {
    ...claim,
    phase: 'Launched',
    instanceId,
    providerID: `aws:///us-east-1a/${instanceId}`,
    timestamps: { ...claim.timestamps, Launched: secondsAfter(T0, 5).toISOString() },
  };
}

/** Runs a change to a claim; a frozen claim's refusal (a TypeError) is an answer too. */
function tryChanging(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

function createContract(makeStore: StoreFactory): void {
  it('records a new claim at version 1 and reads it back', async () => {
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim());
    expect(created).toEqual({ ...aNewNodeClaim(), version: 1 });
    expect(await nodeClaims.get(created.name)).toEqual(created);
    expect(await nodeClaims.get('missing')).toBeUndefined();
  });

  it('lets exactly one of 10 concurrent creates of the same claim win', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    // Act
    const outcome = await race(10, (i) => nodeClaims.create(aNewNodeClaim({ nodeClass: `c${i}` })));
    // Assess
    expect(outcome.fulfilled).toHaveLength(1);
    expect(outcome.rejected).toHaveLength(9);
    for (const err of outcome.rejected) expect(err).toBeInstanceOf(NameTakenError);
    expect(await nodeClaims.list()).toEqual(outcome.fulfilled);
  });

  it('tells a fenced create whose name is taken from one whose fence is stale', async () => {
    // Prepare
    const { lease, nodeClaims } = await makeStore();
    const stale = await lease.acquire('pass-1', T0, 60);
    const fence = await lease.acquire('pass-2', secondsAfter(T0, 61), 60);
    if (stale === undefined || fence === undefined) throw new Error('the lease was free');
    const taken = await nodeClaims.create(aNewNodeClaim({ name: 'default-k1x7q' }), { fence });
    // Act
    const again = await rejectionOf(
      nodeClaims.create(aNewNodeClaim({ name: 'default-k1x7q', nodeClass: 'other' }), { fence }),
    );
    const fenced = await rejectionOf(
      nodeClaims.create(aNewNodeClaim({ name: 'default-q2z9m' }), { fence: stale }),
    );
    // Assess
    expect(again).toBeInstanceOf(NameTakenError);
    expect(fenced).toBeInstanceOf(ConflictError);
    expect(fenced).not.toBeInstanceOf(NameTakenError);
    expect(await nodeClaims.list()).toEqual([taken]);
  });

  it('keeps when a claim was adopted from Karpenter, and finds it by its instance', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    const adopted = {
      ...aNewNodeClaim({ name: 'general-k1x7q', phase: 'Initialized' }),
      instanceId: 'i-0ca00000000000001',
      adoptedAt: T0.toISOString(),
    };
    // Act
    const created = await nodeClaims.create(adopted);
    // Assess
    expect(await nodeClaims.get('general-k1x7q')).toEqual({ ...adopted, version: 1 });
    expect(await nodeClaims.findByInstanceId('i-0ca00000000000001')).toEqual(created);
  });

  it('keeps what it stores apart: changing a submitted or returned claim changes nothing stored', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    const submitted = aNewNodeClaim();
    const created = await nodeClaims.create(submitted);
    const read = await nodeClaims.get(created.name);
    const listed = (await nodeClaims.list())[0];
    // Act: a store may hand out copies, which change, or frozen claims, which refuse to.
    for (const claim of [submitted, created, read ?? created, listed ?? created]) {
      tryChanging(() => (claim.instanceTypeOptions as string[]).push('x1.32xlarge'));
      tryChanging(() => {
        (claim.timestamps as Record<string, string>).Draining = T0.toISOString();
      });
    }
    // Assess
    expect(submitted.instanceTypeOptions).toContain('x1.32xlarge');
    expect(await nodeClaims.get(created.name)).toEqual({ ...aNewNodeClaim(), version: 1 });
    expect(await nodeClaims.list()).toEqual([{ ...aNewNodeClaim(), version: 1 }]);
  });
}

function updateContract(makeStore: StoreFactory): void {
  it('keeps the backoff of a failing action on the claim, and drops it when told to', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim());
    const failure = {
      action: 'TerminateInstance',
      message: 'terminating instance i-0abc: UnauthorizedOperation',
      attempts: 3,
      failedAt: '2030-01-01T00:00:00.000Z',
      retryAt: '2030-01-01T00:00:40.000Z',
    };
    // Act
    const failed = await nodeClaims.update({ ...created, failure });
    const { failure: _cleared, ...rest } = failed;
    const cleared = await nodeClaims.update(rest);
    // Assess
    expect(failed.failure).toEqual(failure);
    expect(await nodeClaims.get(created.name)).toEqual(cleared);
    expect(cleared).not.toHaveProperty('failure');
  });

  it('updates a claim over the version it read and counts the version up', async () => {
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim());
    const updated = await nodeClaims.update(launched(created, 'i-0abc'));
    expect(updated).toEqual({ ...launched(created, 'i-0abc'), version: 2 });
    expect(await nodeClaims.get(created.name)).toEqual(updated);
  });

  it('refuses an update from a stale version and keeps the newer claim', async () => {
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim());
    const updated = await nodeClaims.update(launched(created, 'i-0abc'));
    const stale = await rejectionOf(nodeClaims.update({ ...created, disruption: EMPTY }));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(await nodeClaims.get(created.name)).toEqual(updated);
  });

  it('rejects an update of a claim that does not exist with NotFoundError', async () => {
    const { nodeClaims } = await makeStore();
    const ghost = { ...aNewNodeClaim({ name: 'ghost' }), version: 1 };
    await expect(nodeClaims.update(ghost)).rejects.toBeInstanceOf(NotFoundError);
    expect(await nodeClaims.get('ghost')).toBeUndefined();
  });

  it('lets exactly one of 10 concurrent updates from the same version win', async () => {
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim());
    const outcome = await race(10, (i) => nodeClaims.update(launched(created, `i-${i}`)));
    expect(outcome.fulfilled).toHaveLength(1);
    for (const err of outcome.rejected) expect(err).toBeInstanceOf(ConflictError);
    expect(await nodeClaims.get(created.name)).toEqual(outcome.fulfilled[0]);
  });
}

function replaceAndDeleteContract(makeStore: StoreFactory): void {
  it('replaces the whole claim: a field the update leaves out is gone', async () => {
    const { nodeClaims } = await makeStore();
    const created = await nodeClaims.create(aNewNodeClaim({ disruption: EMPTY }));
    const { disruption: _, ...rest } = created;
    const updated = await nodeClaims.update(rest);
    expect(await nodeClaims.get(created.name)).toEqual(updated);
    expect(updated.disruption).toBeUndefined();
  });

  it('deletes idempotently, and only the expected version when one is given', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    const first = await nodeClaims.create(aNewNodeClaim({ name: 'first' }));
    await nodeClaims.create(aNewNodeClaim({ name: 'second' }));
    // Act
    const stale = await rejectionOf(
      nodeClaims.delete('first', { expectedVersion: first.version + 1 }),
    );
    await nodeClaims.delete('second');
    await nodeClaims.delete('second');
    // Assess
    expect(stale).toBeInstanceOf(ConflictError);
    await nodeClaims.delete('first', { expectedVersion: first.version });
    expect(await nodeClaims.list()).toEqual([]);
  });
}

function queryContract(makeStore: StoreFactory): void {
  it('lists claims sorted by name, by phase and by pool', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    await nodeClaims.create(aNewNodeClaim({ name: 'web-b', nodePool: 'web' }));
    await nodeClaims.create(aNewNodeClaim({ name: 'gpu-a', nodePool: 'gpu', phase: 'Launched' }));
    await nodeClaims.create(aNewNodeClaim({ name: 'web-a', nodePool: 'web', phase: 'Launched' }));
    const names = (claims: readonly NodeClaimRecord[]) => claims.map((claim) => claim.name);
    // Act
    const all = await nodeClaims.list();
    const launchedClaims = await nodeClaims.listByPhase('Launched');
    const web = await nodeClaims.listByPool('web');
    // Assess
    expect(names(all)).toEqual(['gpu-a', 'web-a', 'web-b']);
    expect(names(launchedClaims)).toEqual(['gpu-a', 'web-a']);
    expect(names(web)).toEqual(['web-a', 'web-b']);
    expect(await nodeClaims.listByPhase('Draining')).toEqual([]);
  });

  it('finds a claim by its instance id, and no longer by an id it gave up', async () => {
    // Prepare
    const { nodeClaims } = await makeStore();
    await nodeClaims.create(aNewNodeClaim({ name: 'pending' }));
    const created = await nodeClaims.create(aNewNodeClaim({ name: 'running' }));
    const first = await nodeClaims.update(launched(created, 'i-0first'));
    // Act
    const found = await nodeClaims.findByInstanceId('i-0first');
    const second = await nodeClaims.update(launched(first, 'i-0second'));
    // Assess
    expect(found).toEqual(first);
    expect(await nodeClaims.findByInstanceId('i-0second')).toEqual(second);
    expect(await nodeClaims.findByInstanceId('i-0first')).toBeUndefined();
    expect(await nodeClaims.findByInstanceId('i-0unknown')).toBeUndefined();
  });
}

export function nodeClaimStoreContract(makeStore: StoreFactory): void {
  describe('node claims', () => {
    createContract(makeStore);
    updateContract(makeStore);
    replaceAndDeleteContract(makeStore);
    queryContract(makeStore);
  });
}
