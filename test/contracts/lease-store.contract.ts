/** Contract of the one-writer lease: one holder at a time, tokens that only ever grow. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../functions/ports/errors.ts';
import { race, type StoreFactory, secondsAfter, T0 } from './state-fixtures.ts';

function acquireContract(makeStore: StoreFactory): void {
  it('hands the lease to the first taker and to nobody else while it is live', async () => {
    const { lease } = await makeStore();
    const grant = await lease.acquire('pass-1', T0, 60);
    expect(grant).toEqual({
      holder: 'pass-1',
      fencingToken: 1,
      expiresAt: secondsAfter(T0, 60).toISOString(),
    });
    expect(await lease.acquire('pass-2', secondsAfter(T0, 59), 60)).toBeUndefined();
  });

  it('lets exactly one of 10 concurrent takers hold the lease', async () => {
    const { lease } = await makeStore();
    const outcome = await race(10, (i) => lease.acquire(`pass-${i}`, T0, 60));
    const holders = outcome.fulfilled.filter((grant) => grant !== undefined);
    expect(outcome.rejected).toEqual([]);
    expect(holders).toHaveLength(1);
    expect(holders[0]?.fencingToken).toBe(1);
  });

  it('hands an expired lease to the next taker with a larger token', async () => {
    const { lease } = await makeStore();
    const first = await lease.acquire('pass-1', T0, 60);
    const second = await lease.acquire('pass-2', secondsAfter(T0, 60), 60);
    expect(second?.holder).toBe('pass-2');
    expect(second?.fencingToken).toBeGreaterThan(first?.fencingToken ?? Number.POSITIVE_INFINITY);
  });

  it('tells each taker when the lease was taken before, by whoever took it', async () => {
    // Prepare
    const { lease } = await makeStore();
    const first = await lease.acquire('pass-1', T0, 60);
    if (first === undefined) throw new Error('the lease was free');
    await lease.release(first);

    // Act
    const second = await lease.acquire('pass-2', secondsAfter(T0, 10), 60);
    const third = await lease.acquire('pass-3', secondsAfter(T0, 70), 60);

    // Assess
    expect(first).not.toHaveProperty('previousAcquiredAt');
    expect(second?.previousAcquiredAt).toBe(T0.toISOString());
    expect(third?.previousAcquiredAt).toBe(secondsAfter(T0, 10).toISOString());
  });

  it('gives a holder that acquires again a new, larger token', async () => {
    const { lease } = await makeStore();
    const first = await lease.acquire('pass-1', T0, 60);
    const again = await lease.acquire('pass-1', secondsAfter(T0, 10), 60);
    expect(again?.fencingToken).toBe((first?.fencingToken ?? 0) + 1);
    expect(again?.expiresAt).toBe(secondsAfter(T0, 70).toISOString());
  });
}

function renewContract(makeStore: StoreFactory): void {
  it("renews the holder's lease, keeping its token", async () => {
    // Prepare
    const { lease } = await makeStore();
    const grant = await lease.acquire('pass-1', T0, 60);
    if (grant === undefined) throw new Error('the lease was free');
    // Act
    const renewed = await lease.renew(grant, secondsAfter(T0, 50), 60);
    // Assess
    expect(renewed).toEqual({ ...grant, expiresAt: secondsAfter(T0, 110).toISOString() });
    expect(await lease.acquire('pass-2', secondsAfter(T0, 100), 60)).toBeUndefined();
    expect(await lease.acquire('pass-2', secondsAfter(T0, 110), 60)).toMatchObject({
      holder: 'pass-2',
      expiresAt: secondsAfter(T0, 170).toISOString(),
    });
  });

  it('refuses to renew a lease released or taken since', async () => {
    const { lease } = await makeStore();
    const lost = await lease.acquire('pass-1', T0, 60);
    const released = await lease.acquire('pass-2', secondsAfter(T0, 60), 60);
    if (lost === undefined || released === undefined) throw new Error('the lease was free');
    await lease.release(released);
    await expect(lease.renew(lost, secondsAfter(T0, 61), 60)).rejects.toBeInstanceOf(ConflictError);
    await expect(lease.renew(released, secondsAfter(T0, 61), 60)).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
}

function releaseContract(makeStore: StoreFactory): void {
  it('frees the lease at once on release, and tokens keep counting up', async () => {
    const { lease } = await makeStore();
    const tokens: number[] = [];
    for (const holder of ['pass-1', 'pass-2', 'pass-3']) {
      const grant = await lease.acquire(holder, T0, 60);
      if (grant === undefined) throw new Error(`the lease was not free for ${holder}`);
      tokens.push(grant.fencingToken);
      await lease.release(grant);
      await lease.release(grant);
    }
    expect(tokens).toEqual([1, 2, 3]);
  });

  it('ignores the release of a lease another holder has taken since', async () => {
    const { lease } = await makeStore();
    const lost = await lease.acquire('pass-1', T0, 60);
    await lease.acquire('pass-2', secondsAfter(T0, 60), 60);
    if (lost === undefined) throw new Error('the lease was free');
    await lease.release(lost);
    expect(await lease.acquire('pass-3', secondsAfter(T0, 61), 60)).toBeUndefined();
  });
}

function heldContract(makeStore: StoreFactory): void {
  it('tells its holder the lease is held until it expires, is taken or is released', async () => {
    // Prepare
    const { lease } = await makeStore();
    const first = await lease.acquire('pass-1', T0, 60);
    if (first === undefined) throw new Error('the lease was free');
    // Act
    const whileLive = await lease.isHeld(first, secondsAfter(T0, 59));
    const atExpiry = await lease.isHeld(first, secondsAfter(T0, 60));
    const second = await lease.acquire('pass-2', secondsAfter(T0, 60), 60);
    if (second === undefined) throw new Error('the lease had expired');
    const afterTaken = await lease.isHeld(first, secondsAfter(T0, 61));
    const newHolder = await lease.isHeld(second, secondsAfter(T0, 61));
    await lease.release(second);
    // Assess
    expect([whileLive, atExpiry, afterTaken, newHolder]).toEqual([true, false, false, true]);
    expect(await lease.isHeld(second, secondsAfter(T0, 62))).toBe(false);
  });

  it('tells a holder that renewed its lease that it is held past the first expiry', async () => {
    const { lease } = await makeStore();
    const grant = await lease.acquire('pass-1', T0, 60);
    if (grant === undefined) throw new Error('the lease was free');
    await lease.renew(grant, secondsAfter(T0, 50), 60);
    expect(await lease.isHeld(grant, secondsAfter(T0, 100))).toBe(true);
  });
}

export function leaseStoreContract(makeStore: StoreFactory): void {
  describe('lease', () => {
    acquireContract(makeStore);
    renewContract(makeStore);
    releaseContract(makeStore);
    heldContract(makeStore);
  });
}
