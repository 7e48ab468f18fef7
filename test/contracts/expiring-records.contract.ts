/** Contract of the records that expire: unavailable offerings and events seen. */
import { describe, expect, it } from 'vitest';
import { race, type StoreFactory, secondsAfter, T0 } from './state-fixtures.ts';

const M7G_SPOT_A = { instanceType: 'm7g.large', zone: 'us-east-1a', capacityType: 'spot' } as const;

function unavailableOfferingContract(makeStore: StoreFactory): void {
  it('lists an unavailable offering until its expiry and not from then on', async () => {
    const { unavailableOfferings } = await makeStore();
    const marked = await unavailableOfferings.mark(M7G_SPOT_A, T0, 180);
    expect(marked).toEqual({ ...M7G_SPOT_A, expiresAt: secondsAfter(T0, 180).toISOString() });
    expect(await unavailableOfferings.listLive(secondsAfter(T0, 179.999))).toEqual([marked]);
    expect(await unavailableOfferings.listLive(secondsAfter(T0, 180))).toEqual([]);
  });

  it('sets the new expiry when an offering is marked again', async () => {
    const { unavailableOfferings } = await makeStore();
    await unavailableOfferings.mark(M7G_SPOT_A, T0, 180);
    const again = await unavailableOfferings.mark(M7G_SPOT_A, secondsAfter(T0, 100), 180);
    expect(await unavailableOfferings.listLive(secondsAfter(T0, 200))).toEqual([again]);
  });

  it('lists offerings sorted by instance type, zone and capacity type', async () => {
    const { unavailableOfferings } = await makeStore();
    const offerings = [
      { instanceType: 'm7g.large', zone: 'us-east-1b', capacityType: 'spot' },
      { instanceType: 'c7g.large', zone: 'us-east-1a', capacityType: 'spot' },
      { instanceType: 'm7g.large', zone: 'us-east-1a', capacityType: 'spot' },
      { instanceType: 'm7g.large', zone: 'us-east-1a', capacityType: 'on-demand' },
    ] as const;
    for (const offering of offerings) await unavailableOfferings.mark(offering, T0, 180);
    const listed = await unavailableOfferings.listLive(T0);
    expect(listed.map((o) => `${o.instanceType} ${o.zone} ${o.capacityType}`)).toEqual([
      'c7g.large us-east-1a spot',
      'm7g.large us-east-1a on-demand',
      'm7g.large us-east-1a spot',
      'm7g.large us-east-1b spot',
    ]);
  });

  it('keeps a reserved offering per reservation, so one full reservation hides no other', async () => {
    // Prepare
    const { unavailableOfferings } = await makeStore();
    const inReservation = (reservationId: string) =>
      ({
        instanceType: 'm7g.large',
        zone: 'us-east-1a',
        capacityType: 'reserved',
        reservationId,
      }) as const;

    // Act
    await unavailableOfferings.mark(inReservation('cr-0b'), T0, 180);
    const marked = await unavailableOfferings.mark(inReservation('cr-0a'), T0, 180);

    // Assess
    expect(marked).toEqual({
      ...inReservation('cr-0a'),
      expiresAt: secondsAfter(T0, 180).toISOString(),
    });
    const listed = await unavailableOfferings.listLive(T0);
    expect(listed.map((o) => o.reservationId)).toEqual(['cr-0a', 'cr-0b']);
  });
}

function eventsSeenContract(makeStore: StoreFactory): void {
  it('records an event key once: true the first time, false for duplicates', async () => {
    const { eventsSeen } = await makeStore();
    expect(await eventsSeen.recordOnce('event-1', T0, 3600)).toBe(true);
    expect(await eventsSeen.recordOnce('event-1', secondsAfter(T0, 10), 3600)).toBe(false);
    expect(await eventsSeen.recordOnce('event-2', secondsAfter(T0, 10), 3600)).toBe(true);
  });

  it('forgets an event key once it expires', async () => {
    const { eventsSeen } = await makeStore();
    await eventsSeen.recordOnce('event-1', T0, 3600);
    expect(await eventsSeen.recordOnce('event-1', secondsAfter(T0, 3600), 3600)).toBe(true);
    expect(await eventsSeen.recordOnce('event-1', secondsAfter(T0, 3601), 3600)).toBe(false);
  });

  it('of 10 concurrent records of one key, counts exactly one as first', async () => {
    const { eventsSeen } = await makeStore();
    const outcome = await race(10, () => eventsSeen.recordOnce('event-1', T0, 3600));
    expect(outcome.rejected).toEqual([]);
    expect(outcome.fulfilled.filter((first) => first)).toHaveLength(1);
  });

  it('refuses a time to live that is not positive', async () => {
    const store = await makeStore();
    await expect(store.eventsSeen.recordOnce('event-1', T0, 0)).rejects.toThrow(/ttlSeconds/);
    await expect(store.unavailableOfferings.mark(M7G_SPOT_A, T0, -1)).rejects.toThrow(/ttlSeconds/);
    await expect(store.lease.acquire('pass-1', T0, Number.NaN)).rejects.toThrow(/ttlSeconds/);
  });
}

function ended(nodeClaim: string, endedAt: string, nodeName?: string) {
  return {
    nodeClaim,
    nodePool: 'default',
    ...(nodeName === undefined ? {} : { nodeName }),
    reason: 'Underutilized',
    message: '2 underused nodes consolidated',
    decidedAt: T0.toISOString(),
    endedAt,
  };
}

function pastDisruptionsContract(makeStore: StoreFactory): void {
  it('lists ended disruptions newest first until they expire', async () => {
    const { pastDisruptions } = await makeStore();
    const first = ended('default-a', secondsAfter(T0, 60).toISOString(), 'ip-10-0-1-1');
    const second = ended('default-b', secondsAfter(T0, 120).toISOString());
    await pastDisruptions.record(first, secondsAfter(T0, 60), 3600);
    await pastDisruptions.record(second, secondsAfter(T0, 120), 3600);
    expect(await pastDisruptions.listRecent(secondsAfter(T0, 130))).toEqual([
      { ...second, expiresAt: secondsAfter(T0, 3720).toISOString() },
      { ...first, expiresAt: secondsAfter(T0, 3660).toISOString() },
    ]);
    expect(
      (await pastDisruptions.listRecent(secondsAfter(T0, 3660))).map((d) => d.nodeClaim),
    ).toEqual(['default-b']);
  });

  it('keeps one entry per claim: recording it again replaces it', async () => {
    const { pastDisruptions } = await makeStore();
    await pastDisruptions.record(ended('default-a', T0.toISOString()), T0, 3600);
    const again = { ...ended('default-a', secondsAfter(T0, 5).toISOString()), reason: 'Drifted' };
    await pastDisruptions.record(again, secondsAfter(T0, 5), 3600);
    const listed = await pastDisruptions.listRecent(secondsAfter(T0, 10));
    expect(listed.map((d) => [d.nodeClaim, d.reason])).toEqual([['default-a', 'Drifted']]);
  });

  it('refuses a time to live that is not positive', async () => {
    const { pastDisruptions } = await makeStore();
    await expect(
      pastDisruptions.record(ended('default-a', T0.toISOString()), T0, 0),
    ).rejects.toThrow(/ttlSeconds/);
  });
}

export function expiringRecordsContract(makeStore: StoreFactory): void {
  describe('unavailable offerings', () => unavailableOfferingContract(makeStore));
  describe('events seen', () => eventsSeenContract(makeStore));
  describe('past disruptions', () => pastDisruptionsContract(makeStore));
}
