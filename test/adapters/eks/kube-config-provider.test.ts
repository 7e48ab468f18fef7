import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DescribeClusterCommand } from '@aws-sdk/client-eks';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { toKubeConfig } from '../../../functions/adapters/eks/kube-config.ts';
import {
  makeEksKubeConfigProvider,
  makeSecretKubeConfigProvider,
} from '../../../functions/adapters/eks/kube-config-provider.ts';
import { NotFoundError } from '../../../functions/ports/errors.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/index.ts';
import {
  CERTIFICATE_AUTHORITY_DATA,
  SERVING_CERTIFICATE,
  SERVING_KEY,
} from '../../../simulator/api-server/serving-certificate.ts';
import {
  aClock,
  aCredentialProvider,
  CA_DATA,
  CLUSTER_NAME,
  CREDENTIALS,
  decodeToken,
  describedCluster,
  expectedSignature,
  MINUTE,
  mockedClients,
  REGION,
  SECRET_ID,
} from './support.ts';

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An EKS provider whose DescribeCluster names the fake API server, reached over plain http. */
async function eksAgainstFakeServer() {
  const clock = aClock();
  server = await startFakeApiServer({ now: clock.now });
  const { eks, eksMock } = mockedClients();
  eksMock.on(DescribeClusterCommand).resolves(describedCluster({ endpoint: server.url }));
  const kubeConfigs = makeEksKubeConfigProvider({
    eks,
    clusterName: CLUSTER_NAME,
    region: REGION,
    credentials: aCredentialProvider().get,
    now: clock.now,
    skipTLSVerify: true,
  });
  return { clock, server, kubeConfigs };
}

function authorizationOf(fake: FakeApiServer): string | undefined {
  return fake.requests.matching('GET', '/api/v1/nodes').at(-1)?.headers.authorization;
}

describe('kubeconfigs for cluster access', () => {
  it('hold one cluster, one user with the token and one context', () => {
    // Act
    const kubeConfig = toKubeConfig(
      {
        server: 'https://prod.example.com',
        certificateAuthorityData: CA_DATA,
        token: 'k8s-aws-v1.abc',
      },
      { name: CLUSTER_NAME },
    );
    // Assess
    expect(kubeConfig.getCurrentContext()).toBe(CLUSTER_NAME);
    expect(kubeConfig.getCurrentCluster()).toEqual({
      name: CLUSTER_NAME,
      server: 'https://prod.example.com',
      caData: CA_DATA,
      skipTLSVerify: false,
    });
    expect(kubeConfig.getCurrentUser()).toEqual({ name: CLUSTER_NAME, token: 'k8s-aws-v1.abc' });
  });

  it("carry a pass's requests and watches over one kept TLS connection, verified against the cluster CA", async () => {
    // Prepare
    let connections = 0;
    const tlsServer = createHttpsServer(
      { cert: SERVING_CERTIFICATE, key: SERVING_KEY },
      (_request, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ apiVersion: 'v1', kind: 'NodeList', items: [] }));
      },
    );
    tlsServer.on('secureConnection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const { port } = tlsServer.address() as AddressInfo;
    const kubeConfig = toKubeConfig(
      {
        server: `https://127.0.0.1:${port}`,
        certificateAuthorityData: CERTIFICATE_AUTHORITY_DATA,
        token: 'k8s-aws-v1.abc',
      },
      { name: CLUSTER_NAME },
    );
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const watched = () =>
      new Promise<unknown>((resolve) => {
        void new Watch(kubeConfig).watch('/api/v1/nodes', {}, () => undefined, resolve);
      });
    // Act: calls, a new client's call, and the watches a pass catches up with.
    for (let i = 0; i < 3; i++) await core.listNode();
    await kubeConfig.makeApiClient(CoreV1Api).listNode();
    const ended = [await watched(), await watched()];
    await core.listNode();
    // Assess
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
    expect(ended).toEqual([null, null]);
    expect(connections).toBe(1);
  });

  it('make client-node send the eks token as a bearer token', async () => {
    // Prepare
    const { kubeConfigs, server: fake } = await eksAgainstFakeServer();
    const core = (await kubeConfigs.current()).makeApiClient(CoreV1Api);
    // Act
    await core.listNode();
    // Assess
    const authorization = authorizationOf(fake) ?? '';
    expect(authorization).toMatch(/^Bearer k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    const url = new URL(decodeToken(authorization.slice('Bearer '.length)));
    expect(url.searchParams.get('X-Amz-Signature')).toBe(
      expectedSignature(url.href, CREDENTIALS.secretAccessKey, { 'x-k8s-aws-id': CLUSTER_NAME }),
    );
  });

  it('stay the same while the token is fresh', async () => {
    // Prepare
    const { clock, kubeConfigs } = await eksAgainstFakeServer();
    const first = await kubeConfigs.current();
    clock.advance(9 * MINUTE);
    // Act
    const later = await kubeConfigs.current();
    // Assess
    expect(later).toBe(first);
  });

  it('carry a fresh token once the old one is about to expire', async () => {
    // Prepare
    const { clock, kubeConfigs, server: fake } = await eksAgainstFakeServer();
    const first = await kubeConfigs.current();
    await first.makeApiClient(CoreV1Api).listNode();
    const firstAuthorization = authorizationOf(fake);
    clock.advance(10 * MINUTE);
    // Act
    const renewed = await kubeConfigs.current();
    await renewed.makeApiClient(CoreV1Api).listNode();
    // Assess
    expect(renewed).not.toBe(first);
    const authorization = authorizationOf(fake) ?? '';
    expect(authorization).not.toBe(firstAuthorization);
    const url = new URL(decodeToken(authorization.slice('Bearer '.length)));
    expect(url.searchParams.get('X-Amz-Date')).toBe('20240810T091000Z');
  });

  it('for a self-managed cluster carry the server, ca and token of its secret', async () => {
    // Prepare
    const { secrets, secretsMock } = mockedClients();
    secretsMock.on(GetSecretValueCommand).resolves({
      SecretString: JSON.stringify({
        endpoint: 'https://10.0.12.7:6443',
        certificateAuthorityData: CA_DATA,
        token: 'eyJhbGciOi.service-account',
      }),
    });
    const kubeConfigs = makeSecretKubeConfigProvider({
      secrets,
      secretId: SECRET_ID,
      clusterName: CLUSTER_NAME,
      now: aClock().now,
    });
    // Act
    const kubeConfig = await kubeConfigs.current();
    // Assess
    expect(kubeConfig.getCurrentCluster()).toMatchObject({
      server: 'https://10.0.12.7:6443',
      caData: CA_DATA,
    });
    expect(kubeConfig.getCurrentUser()?.token).toBe('eyJhbGciOi.service-account');
  });

  it('reject as their source does', async () => {
    // Prepare
    const { eks, eksMock } = mockedClients();
    eksMock.on(DescribeClusterCommand).rejects(
      Object.assign(new Error('No cluster found for name: prod.'), {
        name: 'ResourceNotFoundException',
      }),
    );
    const kubeConfigs = makeEksKubeConfigProvider({
      eks,
      clusterName: CLUSTER_NAME,
      region: REGION,
      credentials: aCredentialProvider().get,
      now: aClock().now,
    });
    // Act
    const current = kubeConfigs.current();
    // Assess
    await expect(current).rejects.toThrow(NotFoundError);
  });
});
