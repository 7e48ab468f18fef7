import { describe, expect, it } from 'vitest';
import { MINUTE_MS, TtlCache } from '../../../functions/adapters/cache/ttl-cache.ts';
import { aClock } from '../../support/clock.ts';

describe('the adapters cache', () => {
  it('serves a value until its TTL has passed, then loads again', async () => {
    // Prepare
    const clock = aClock();
    const cache = new TtlCache<string>(clock.now, 5 * MINUTE_MS);
    let loads = 0;
    const load = async () => `value-${++loads}`;

    // Act
    const first = await cache.getOrLoad('k', load);
    clock.advance(5 * MINUTE_MS - 1);
    const before = await cache.getOrLoad('k', load);
    clock.advance(1);
    const after = await cache.getOrLoad('k', load);

    // Assess
    expect([first, before, after]).toEqual(['value-1', 'value-1', 'value-2']);
  });

  it('replaces a value at the time its loader named', async () => {
    // Prepare
    const clock = aClock();
    const cache = new TtlCache<string>(clock.now);
    let loads = 0;
    const load = async () => ({
      value: `token-${++loads}`,
      replaceAt: new Date(clock.now().getTime() + 14 * MINUTE_MS),
    });

    // Act
    const first = await cache.getOrLoadExpiring('', load);
    clock.advance(14 * MINUTE_MS - 1);
    const reused = await cache.getOrLoadExpiring('', load);
    clock.advance(1);
    const renewed = await cache.getOrLoadExpiring('', load);

    // Assess
    expect([first, reused, renewed]).toEqual(['token-1', 'token-1', 'token-2']);
  });

  it('shares one load among callers that ask while it runs', async () => {
    // Prepare
    const cache = new TtlCache<string>(aClock().now, MINUTE_MS);
    let loads = 0;
    let release: (value: string) => void = () => {};
    const load = () => {
      loads++;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };

    // Act
    const both = Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)]);
    release('shared');

    // Assess
    expect(await both).toEqual(['shared', 'shared']);
    expect(loads).toBe(1);
  });

  it('stores nothing when a load fails, so the next call tries again', async () => {
    // Prepare
    const cache = new TtlCache<string>(aClock().now, MINUTE_MS);

    // Act
    const failed = cache.getOrLoad('k', () => Promise.reject(new Error('throttled')));
    await expect(failed).rejects.toThrow('throttled');
    const retried = await cache.getOrLoad('k', async () => 'loaded');

    // Assess
    expect(retried).toBe('loaded');
    expect(cache.get('k')).toBe('loaded');
  });

  it('forgets a deleted key', () => {
    // Prepare
    const cache = new TtlCache<string>(aClock().now, MINUTE_MS);
    cache.set('k', 'v');

    // Act
    cache.delete('k');

    // Assess
    expect(cache.get('k')).toBeUndefined();
  });
});
