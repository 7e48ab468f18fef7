/**
 * The API server's memory of the EKS tokens it checked: each token signed again once, and every
 * verdict the one signing again would give — a token's age still checked on every request.
 */
import { describe, expect, it } from 'vitest';
import { makeEksToken } from '../../../../functions/adapters/eks/eks-token.ts';
import { checkEksToken } from '../../../../simulator/aws/eks/eks-token-check.ts';
import { rememberedSignatures } from '../../../../simulator/aws/eks/remembered-signatures.ts';

const SIGNED_AT = Date.parse('2026-11-27T08:00:00Z');
const CREDENTIALS = {
  accessKeyId: 'ASIASIMCONTROLLER01',
  secretAccessKey: 'controller-secret',
  sessionToken: 'controller-session',
};

async function tokenFor(secretAccessKey = CREDENTIALS.secretAccessKey, minutes = 0) {
  const made = await makeEksToken({
    clusterName: 'shop',
    region: 'us-east-1',
    credentials: { ...CREDENTIALS, secretAccessKey },
    signingDate: new Date(SIGNED_AT + minutes * 60_000),
  });
  return made.token;
}

/** A check that remembers, counting how often it signs again. */
function rememberingCheck() {
  const remembered = rememberedSignatures();
  const counted = { signings: 0 };
  const check = (token: string, nowMs: number) =>
    checkEksToken(
      token,
      {
        clusterName: 'shop',
        region: 'us-east-1',
        now: () => nowMs,
        credentialsOf: (key) => (key === CREDENTIALS.accessKeyId ? CREDENTIALS : undefined),
      },
      (t, matches) =>
        remembered(t, () => {
          counted.signings += 1;
          return matches();
        }),
    );
  return { check, counted };
}

describe('the remembered EKS token signatures', () => {
  it('signs each token again once, however often it is sent', async () => {
    // Prepare
    const { check, counted } = rememberingCheck();
    const first = await tokenFor();
    const renewed = await tokenFor(CREDENTIALS.secretAccessKey, 10);

    // Act
    const verdicts = [
      await check(first, SIGNED_AT + 60_000),
      await check(first, SIGNED_AT + 120_000),
      await check(renewed, SIGNED_AT + 11 * 60_000),
      await check(renewed, SIGNED_AT + 12 * 60_000),
    ];

    // Assess
    expect(verdicts.map((v) => v.accepted)).toEqual([true, true, true, true]);
    expect(counted.signings).toBe(2);
  });

  it('refuses a remembered token once it has expired', async () => {
    // Prepare
    const { check } = rememberingCheck();
    const token = await tokenFor();
    await check(token, SIGNED_AT + 60_000);

    // Act
    const verdict = await check(token, SIGNED_AT + 16 * 60_000);

    // Assess
    expect(verdict).toEqual({ accepted: false, reason: expect.stringMatching(/expired/) });
  });

  it('refuses a forged token every time it is sent', async () => {
    // Prepare
    const { check } = rememberingCheck();
    const forged = await tokenFor('another-secret');

    // Act
    const verdicts = [
      await check(forged, SIGNED_AT + 60_000),
      await check(forged, SIGNED_AT + 120_000),
    ];

    // Assess
    expect(verdicts).toEqual([
      { accepted: false, reason: expect.stringMatching(/signature/) },
      { accepted: false, reason: expect.stringMatching(/signature/) },
    ]);
  });
});
