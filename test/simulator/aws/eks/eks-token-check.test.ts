/**
 * The check a simulated API server can make of the bearer tokens the functions' EKS adapter
 * makes: accepted for this cluster, this key and the last fifteen minutes, refused otherwise.
 */
import { describe, expect, it } from 'vitest';
import { makeEksToken } from '../../../../functions/adapters/eks/eks-token.ts';
import { checkEksToken } from '../../../../simulator/aws/eks/eks-token-check.ts';

const SIGNED_AT = Date.parse('2026-11-27T08:00:00Z');
const CREDENTIALS = {
  accessKeyId: 'ASIASIMCONTROLLER01',
  secretAccessKey: 'controller-secret',
  sessionToken: 'controller-session',
};

async function tokenFor(clusterName = 'shop', credentials = CREDENTIALS) {
  const made = await makeEksToken({
    clusterName,
    region: 'us-east-1',
    credentials,
    signingDate: new Date(SIGNED_AT),
  });
  return made.token;
}

function check(token: string, nowMs = SIGNED_AT + 60_000) {
  return checkEksToken(token, {
    clusterName: 'shop',
    region: 'us-east-1',
    now: () => nowMs,
    credentialsOf: (key) => (key === CREDENTIALS.accessKeyId ? CREDENTIALS : undefined),
  });
}

describe('the EKS token check', () => {
  it("accepts the functions' token for this cluster, naming the caller's access key", async () => {
    // Prepare
    const token = await tokenFor();

    // Act
    const verdict = await check(token);

    // Assess
    expect(verdict).toEqual({ accepted: true, accessKeyId: CREDENTIALS.accessKeyId });
  });

  it.each([
    ['a token for another cluster', () => tokenFor('other'), SIGNED_AT, /signature/],
    [
      'a token signed with another secret',
      () => tokenFor('shop', { ...CREDENTIALS, secretAccessKey: 'x' }),
      SIGNED_AT,
      /signature/,
    ],
    [
      'a token of a key the account never issued',
      () => tokenFor('shop', { ...CREDENTIALS, accessKeyId: 'AKIDUNKNOWN' }),
      SIGNED_AT,
      /no such access key/,
    ],
    [
      'a token signed more than fifteen minutes ago',
      () => tokenFor(),
      SIGNED_AT + 16 * 60_000,
      /expired/,
    ],
    [
      'a string that is no token',
      async () => 'k8s-aws-v1.bm90IGEgdXJs',
      SIGNED_AT,
      /not a presigned/,
    ],
  ])('refuses %s', async (_name, make, nowMs, reason) => {
    // Prepare
    const token = await make();

    // Act
    const verdict = await check(token, nowMs);

    // Assess
    expect(verdict).toEqual({ accepted: false, reason: expect.stringMatching(reason) });
  });
});
