import { describe, expect, it } from 'vitest';
import {
  backoffSeconds,
  isBackingOff,
  withFailure,
  withoutFailure,
} from '../../../functions/domain/lifecycle/claim-backoff.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('backing off a claim whose action keeps failing', () => {
  it('waits 10 s after the first failure, doubling with each one in a row up to 10 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(backoffSeconds)).toEqual([
      10, 20, 40, 80, 160, 320, 600, 600,
    ]);
  });

  it('counts failures in a row on the claim and leaves it alone until its retry time', () => {
    const claim = { ...aNewNodeClaim(), version: 1 };
    const once = withFailure(claim, 'Drain', 'eviction forbidden', T0);
    const twice = withFailure(once, 'Drain', 'eviction forbidden', later(10));
    expect(twice.failure).toEqual({
      action: 'Drain',
      message: 'eviction forbidden',
      attempts: 2,
      failedAt: later(10).toISOString(),
      retryAt: later(30).toISOString(),
    });
    expect([isBackingOff(twice, later(29)), isBackingOff(twice, later(30))]).toEqual([true, false]);
    expect(isBackingOff(claim, T0)).toBe(false);
  });

  it('forgets the failures once an action succeeds', () => {
    const claim = { ...aNewNodeClaim(), version: 1 };
    const cleared = withoutFailure(withFailure(claim, 'Register', 'denied', T0));
    expect(cleared).toEqual(claim);
    expect(withFailure(cleared, 'Register', 'denied', T0).failure?.attempts).toBe(1);
  });
});
