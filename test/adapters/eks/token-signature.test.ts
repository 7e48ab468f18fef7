import { describe, expect, it } from 'vitest';
import { makeEksToken } from '../../../functions/adapters/eks/eks-token.ts';
import { CLUSTER_NAME, CREDENTIALS, decodeToken, expectedSignature, REGION } from './support.ts';

async function signedUrl(clusterName = CLUSTER_NAME): Promise<URL> {
  const { token } = await makeEksToken({
    clusterName,
    region: REGION,
    credentials: CREDENTIALS,
    signingDate: new Date('2024-08-10T09:00:00.000Z'),
  });
  return new URL(decodeToken(token));
}

describe('the token signature', () => {
  it('checker reproduces the signature aws-sdk-ruby publishes for its sts presigner', () => {
    // Prepare: the expected URL of aws-sdk-ruby's STS presigner spec (akid/secret, my-eks-cluster).
    const published =
      'https://sts.us-west-2.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15' +
      '&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=akid%2F20160101%2Fus-west-2%2Fsts%2Faws4_request' +
      '&X-Amz-Date=20160101T112233Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host%3Bx-k8s-aws-id' +
      '&X-Amz-Signature=98828ca931430d3c58b35c01dfa444696584d19f131272e9b55cb18a7491f51a';
    // Act
    const signature = expectedSignature(published, 'secret', { 'x-k8s-aws-id': 'my-eks-cluster' });
    // Assess
    expect(signature).toBe('98828ca931430d3c58b35c01dfa444696584d19f131272e9b55cb18a7491f51a');
  });

  it('is the one sts computes when the api server presents the cluster name', async () => {
    // Act
    const url = await signedUrl();
    // Assess
    const signature = expectedSignature(url.href, CREDENTIALS.secretAccessKey, {
      'x-k8s-aws-id': CLUSTER_NAME,
    });
    expect(url.searchParams.get('X-Amz-Signature')).toBe(signature);
  });

  it('does not hold for another cluster, so the token cannot be replayed there', async () => {
    // Act
    const url = await signedUrl();
    // Assess
    const elsewhere = expectedSignature(url.href, CREDENTIALS.secretAccessKey, {
      'x-k8s-aws-id': 'staging',
    });
    expect(url.searchParams.get('X-Amz-Signature')).not.toBe(elsewhere);
  });

  it('does not hold for another secret key', async () => {
    // Act
    const url = await signedUrl();
    // Assess
    const forged = expectedSignature(url.href, 'another-secret', { 'x-k8s-aws-id': CLUSTER_NAME });
    expect(url.searchParams.get('X-Amz-Signature')).not.toBe(forged);
  });
});
