import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_BYTES, makeEksToken } from '../../../functions/adapters/eks/eks-token.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';
import { CLUSTER_NAME, CREDENTIALS, decodeToken, REGION } from './support.ts';

const SIGNED_AT = new Date('2024-08-10T09:00:00.000Z');

function tokenFor(overrides: Partial<Parameters<typeof makeEksToken>[0]> = {}) {
  return makeEksToken({
    clusterName: CLUSTER_NAME,
    region: REGION,
    credentials: CREDENTIALS,
    signingDate: SIGNED_AT,
    ...overrides,
  });
}

/** The query as sent: names in order, values still encoded. */
function rawQuery(url: string): [string, string][] {
  const query = url.slice(url.indexOf('?') + 1);
  return query.split('&').map((pair) => {
    const [name = '', value = ''] = pair.split('=');
    return [name, value];
  });
}

/** The parameters aws-iam-authenticator's Verify() lets through (pkg/token/token.go). */
const AUTHENTICATOR_WHITELIST = new Set([
  'action',
  'version',
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-expires',
  'x-amz-security-token',
  'x-amz-signature',
  'x-amz-signedheaders',
]);

describe('the eks token', () => {
  it('is k8s-aws-v1. and the URL in base64url without padding', async () => {
    // Act
    const { token } = await tokenFor();
    // Assess
    expect(token).toMatch(/^k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('=');
    expect(decodeToken(token)).toMatch(/^https:\/\/sts\.us-west-2\.amazonaws\.com\/\?/);
  });

  it('carries the presigned GetCallerIdentity URL aws eks get-token sends, part for part', async () => {
    // Act
    const url = decodeToken((await tokenFor()).token);
    // Assess
    expect(url.slice(0, url.indexOf('?'))).toBe('https://sts.us-west-2.amazonaws.com/');
    const query = rawQuery(url);
    expect(query.slice(0, -1)).toEqual([
      ['Action', 'GetCallerIdentity'],
      ['Version', '2011-06-15'],
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Credential', 'AKIAIOSFODNN7EXAMPLE%2F20240810%2Fus-west-2%2Fsts%2Faws4_request'],
      ['X-Amz-Date', '20240810T090000Z'],
      ['X-Amz-Expires', '60'],
      ['X-Amz-Security-Token', 'IQoJb3JpZ2luX2VjEXAMPLE%2Fsession%2Btoken%3D%3D'],
      ['X-Amz-SignedHeaders', 'host%3Bx-k8s-aws-id'],
    ]);
    expect(query.at(-1)?.[0]).toBe('X-Amz-Signature');
    expect(query.at(-1)?.[1]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has no security token parameter when signed with long-term keys', async () => {
    // Act
    const { token } = await tokenFor({
      credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'secret' },
    });
    // Assess
    const names = rawQuery(decodeToken(token)).map(([name]) => name);
    expect(names).toEqual([
      'Action',
      'Version',
      'X-Amz-Algorithm',
      'X-Amz-Credential',
      'X-Amz-Date',
      'X-Amz-Expires',
      'X-Amz-SignedHeaders',
      'X-Amz-Signature',
    ]);
  });

  it('addresses the china partition at its own sts domain', async () => {
    // Act
    const { token } = await tokenFor({ region: 'cn-north-1' });
    // Assess
    const url = new URL(decodeToken(token));
    expect(url.host).toBe('sts.cn-north-1.amazonaws.com.cn');
    expect(url.searchParams.get('X-Amz-Credential')).toContain('/cn-north-1/sts/aws4_request');
  });

  it('passes every check the authenticator makes before it calls sts', async () => {
    // Act
    const { token } = await tokenFor();
    // Assess
    expect(Buffer.byteLength(token)).toBeLessThanOrEqual(MAX_TOKEN_BYTES);
    const url = new URL(decodeToken(token));
    expect(url.protocol).toBe('https:');
    expect(url.pathname).toBe('/');
    const names = [...url.searchParams.keys()];
    expect(names.filter((name) => !AUTHENTICATOR_WHITELIST.has(name.toLowerCase()))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(url.searchParams.get('Action')).toBe('GetCallerIdentity');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('x-k8s-aws-id');
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
  });

  it('reports expiry fourteen minutes after signing, as the cli does', async () => {
    // Act
    const token = await tokenFor();
    // Assess
    expect(token.signedAt).toEqual(SIGNED_AT);
    expect(token.expiresAt).toEqual(new Date('2024-08-10T09:14:00.000Z'));
  });

  it('expires with its credentials when they expire first', async () => {
    // Prepare
    const expiration = new Date('2024-08-10T09:06:00.000Z');
    // Act
    const token = await tokenFor({ credentials: { ...CREDENTIALS, expiration } });
    // Assess
    expect(token.expiresAt).toEqual(expiration);
  });

  it('fails when the session token makes it longer than the authenticator accepts', async () => {
    // Prepare
    const credentials = { ...CREDENTIALS, sessionToken: 'A'.repeat(3000) };
    // Act
    const making = tokenFor({ credentials });
    // Assess
    await expect(making).rejects.toThrow(InvalidConfigError);
    await expect(making).rejects.toThrow(/cluster prod: it is \d+ bytes, over the 4096/);
  });

  it('is the same for the same cluster, credentials and time', async () => {
    // Act
    const [first, second] = await Promise.all([tokenFor(), tokenFor()]);
    // Assess
    expect(first?.token).toBe(second?.token);
  });
});
