/** Contract of fenced claim writes: a holder who lost the lease can no longer write. */
import { describe, expect, it } from 'vitest';
import type { LeaseGrant } from '../../functions/domain/state/lease.ts';
import { ConflictError, NotFoundError } from '../../functions/ports/errors.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import {
  aNewNodeClaim,
  race,
  rejectionOf,
  type StoreFactory,
  secondsAfter,
  T0,
} from './state-fixtures.ts';

async function grantTo(store: StateStore, holder: string, now: Date): Promise<LeaseGrant> {
  const grant = await store.lease.acquire(holder, now, 60);
  if (grant === undefined) throw new Error(`acquiring the lease for ${holder}: it is held`);
  return grant;
}

function currentHolderContract(makeStore: StoreFactory): void {
  it('accepts creates, updates and deletes fenced with the current token', async () => {
    const store = await makeStore();
    const fence = await grantTo(store, 'pass-1', T0);
    const created = await store.nodeClaims.create(aNewNodeClaim(), { fence });
    const updated = await store.nodeClaims.update({ ...created, phase: 'Launched' }, { fence });
    expect(updated.version).toBe(2);
    await store.nodeClaims.delete(created.name, { fence });
    expect(await store.nodeClaims.list()).toEqual([]);
  });

  it('rejects a fenced update of a missing claim with NotFoundError', async () => {
    const store = await makeStore();
    const fence = await grantTo(store, 'pass-1', T0);
    const ghost = { ...aNewNodeClaim(), version: 1 };
    await expect(store.nodeClaims.update(ghost, { fence })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a fenced update from a stale version with ConflictError', async () => {
    const store = await makeStore();
    const fence = await grantTo(store, 'pass-1', T0);
    const created = await store.nodeClaims.create(aNewNodeClaim(), { fence });
    await store.nodeClaims.update({ ...created, phase: 'Launched' }, { fence });
    const stale = await rejectionOf(
      store.nodeClaims.update({ ...created, phase: 'Draining' }, { fence }),
    );
    expect(stale).toBeInstanceOf(ConflictError);
    expect((await store.nodeClaims.get(created.name))?.phase).toBe('Launched');
  });

  it('lets exactly one of 10 concurrent fenced creates of the same claim win', async () => {
    const store = await makeStore();
    const fence = await grantTo(store, 'pass-1', T0);
    const outcome = await race(10, () => store.nodeClaims.create(aNewNodeClaim(), { fence }));
    expect(outcome.fulfilled).toHaveLength(1);
    for (const err of outcome.rejected) expect(err).toBeInstanceOf(ConflictError);
  });
}

function staleHolderContract(makeStore: StoreFactory): void {
  it('refuses every write of a holder whose lease another holder has taken', async () => {
    // Prepare
    const store = await makeStore();
    const stale = await grantTo(store, 'pass-1', T0);
    const claim = await store.nodeClaims.create(aNewNodeClaim({ name: 'kept' }), { fence: stale });
    await grantTo(store, 'pass-2', secondsAfter(T0, 61));
    const fence = { fencingToken: stale.fencingToken };
    // Act
    const refusals = [
      await rejectionOf(store.nodeClaims.create(aNewNodeClaim({ name: 'new' }), { fence })),
      await rejectionOf(store.nodeClaims.update({ ...claim, phase: 'Launched' }, { fence })),
      await rejectionOf(store.nodeClaims.delete(claim.name, { fence })),
    ];
    // Assess
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(ConflictError);
    expect(await store.nodeClaims.list()).toEqual([claim]);
  });

  it('refuses writes fenced by a lease its holder released', async () => {
    const store = await makeStore();
    const grant = await grantTo(store, 'pass-1', T0);
    await store.lease.release(grant);
    const create = store.nodeClaims.create(aNewNodeClaim(), { fence: grant });
    await expect(create).rejects.toBeInstanceOf(ConflictError);
    expect(await store.nodeClaims.list()).toEqual([]);
  });

  it('refuses a fenced write before any lease was ever taken', async () => {
    const store = await makeStore();
    const create = store.nodeClaims.create(aNewNodeClaim(), { fence: { fencingToken: 1 } });
    await expect(create).rejects.toBeInstanceOf(ConflictError);
  });
}

export function fencingContract(makeStore: StoreFactory): void {
  describe('fenced writes', () => {
    currentHolderContract(makeStore);
    staleHolderContract(makeStore);
  });
}
