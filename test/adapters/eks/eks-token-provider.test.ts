import { describe, expect, it } from 'vitest';
import { EksTokenProvider } from '../../../functions/adapters/eks/eks-token-provider.ts';
import {
  aClock,
  aCredentialProvider,
  CLUSTER_NAME,
  CREDENTIALS,
  decodeToken,
  MINUTE,
  REGION,
  SECOND,
} from './support.ts';

function setUp(credentials = CREDENTIALS) {
  const clock = aClock();
  const provider = aCredentialProvider(credentials);
  const tokens = new EksTokenProvider({
    clusterName: CLUSTER_NAME,
    region: REGION,
    credentials: provider.get,
    now: clock.now,
  });
  return { clock, provider, tokens };
}

function signedAt(token: string): string | null {
  return new URL(decodeToken(token)).searchParams.get('X-Amz-Date');
}

describe('the token provider', () => {
  it('hands out the same token until ten minutes after signing', async () => {
    // Prepare
    const { clock, provider, tokens } = setUp();
    const first = await tokens.current();
    clock.advance(10 * MINUTE - SECOND);
    // Act
    const later = await tokens.current();
    // Assess
    expect(later).toBe(first);
    expect(provider.calls).toBe(1);
  });

  it('signs a new token ten minutes after the last', async () => {
    // Prepare
    const { clock, provider, tokens } = setUp();
    const first = await tokens.current();
    clock.advance(10 * MINUTE);
    // Act
    const next = await tokens.current();
    // Assess
    expect(next.token).not.toBe(first.token);
    expect(signedAt(next.token)).toBe('20240810T091000Z');
    expect(next.expiresAt).toEqual(new Date('2024-08-10T09:24:00.000Z'));
    expect(provider.calls).toBe(2);
  });

  it('never hands out a token with less than four minutes left', async () => {
    // Prepare
    const { clock, tokens } = setUp();
    const remaining: number[] = [];
    // Act
    for (let step = 0; step < 90; step += 1) {
      const token = await tokens.current();
      remaining.push(token.expiresAt.getTime() - clock.now().getTime());
      clock.advance(20 * SECOND);
    }
    // Assess
    expect(Math.min(...remaining)).toBeGreaterThanOrEqual(4 * MINUTE);
  });

  it('signs again sooner when the credentials expire before the token would', async () => {
    // Prepare
    const expiration = new Date('2024-08-10T09:06:00.000Z');
    const { clock, provider, tokens } = setUp({ ...CREDENTIALS, expiration });
    await tokens.current();
    provider.credentials = { ...CREDENTIALS, expiration: new Date('2024-08-10T10:00:00.000Z') };
    clock.advance(2 * MINUTE);
    // Act
    const renewed = await tokens.current();
    // Assess
    expect(provider.calls).toBe(2);
    expect(renewed.expiresAt).toEqual(new Date('2024-08-10T09:16:00.000Z'));
  });

  it('signs once for callers that ask at the same time', async () => {
    // Prepare
    const { provider, tokens } = setUp();
    // Act
    const [a, b, c] = await Promise.all([tokens.current(), tokens.current(), tokens.current()]);
    // Assess
    expect(provider.calls).toBe(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('rejects with the credential error unchanged and tries again on the next call', async () => {
    // Prepare
    const clock = aClock();
    const failure = new Error('could not load credentials from any providers');
    let calls = 0;
    const tokens = new EksTokenProvider({
      clusterName: CLUSTER_NAME,
      region: REGION,
      credentials: async () => {
        calls += 1;
        if (calls === 1) throw failure;
        return CREDENTIALS;
      },
      now: clock.now,
    });
    // Act
    const first = tokens.current();
    // Assess
    await expect(first).rejects.toBe(failure);
    await expect(tokens.current()).resolves.toMatchObject({ token: expect.any(String) });
  });
});
