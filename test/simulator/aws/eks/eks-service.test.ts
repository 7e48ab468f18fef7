/**
 * The simulated EKS through the unchanged SDK client and the functions' EKS adapters: the
 * cluster description leads to the simulated Kubernetes API server, and a kubeconfig built from
 * it as the functions build theirs lists its namespaces.
 */
import { DescribeClusterCommand, EKSClient, ResourceNotFoundException } from '@aws-sdk/client-eks';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eksClusterSettings } from '../../../../functions/adapters/eks/cluster-settings.ts';
import { EksClusterDescription } from '../../../../functions/adapters/eks/eks-cluster-description.ts';
import { EksClusterEndpoint } from '../../../../functions/adapters/eks/eks-cluster-endpoint.ts';
import { toKubeConfig } from '../../../../functions/adapters/eks/kube-config.ts';
import { NotFoundError } from '../../../../functions/ports/errors.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../../simulator/api-server/server.ts';
import { CERTIFICATE_AUTHORITY_DATA } from '../../../../simulator/api-server/serving-certificate.ts';
import { eksService } from '../../../../simulator/aws/eks/eks-service.ts';
import { SimulatedEks } from '../../../../simulator/aws/eks/simulated-eks.ts';
import {
  type AwsTestEndpoint,
  startAwsTestEndpoint,
  TEST_REGION,
} from '../../../support/aws-test-endpoint.ts';

const now = () => new Date('2026-11-27T08:00:00Z');
let apiServer: FakeApiServer;
let endpoint: AwsTestEndpoint;
let client: EKSClient;

beforeAll(async () => {
  apiServer = await startFakeApiServer({ now, tls: true });
  const eks = new SimulatedEks({
    region: TEST_REGION,
    account: '111122223333',
    now: () => now().getTime(),
    apiServerUrl: () => apiServer.url,
  });
  eks.createCluster({ name: 'shop', version: '1.32', serviceIpv4Cidr: '172.20.0.0/16' });
  endpoint = await startAwsTestEndpoint([eksService(eks)]);
  client = new EKSClient(endpoint.clientConfig);
});

afterAll(async () => {
  client.destroy();
  await endpoint.close();
  await apiServer.close();
});

describe('the simulated EKS', () => {
  it('describes the cluster as active, with its version, service range, endpoint and CA', async () => {
    // Prepare
    const command = new DescribeClusterCommand({ name: 'shop' });

    // Act
    const { cluster } = await client.send(command);

    // Assess
    expect(cluster).toMatchObject({
      name: 'shop',
      arn: 'arn:aws:eks:us-east-1:111122223333:cluster/shop',
      status: 'ACTIVE',
      version: '1.32',
      endpoint: apiServer.url,
      certificateAuthority: { data: CERTIFICATE_AUTHORITY_DATA },
      kubernetesNetworkConfig: { serviceIpv4Cidr: '172.20.0.0/16' },
      createdAt: now(),
    });
  });

  it('gives the launch settings adapter the cluster, its DNS address derived from the service range', async () => {
    // Prepare
    const description = new EksClusterDescription({ eks: client, clusterName: 'shop', now });

    // Act
    const settings = await eksClusterSettings(description, 'shop', TEST_REGION);

    // Assess
    expect(settings).toEqual({
      name: 'shop',
      region: TEST_REGION,
      kubernetesVersion: '1.32',
      endpoint: apiServer.url,
      certificateAuthority: CERTIFICATE_AUTHORITY_DATA,
      serviceCidr: '172.20.0.0/16',
      clusterDns: '172.20.0.10',
    });
  });

  it("leads the functions' kubeconfig to the simulated API server, verifying its TLS by the cluster's CA", async () => {
    // Prepare
    const access = await new EksClusterEndpoint({
      eks: client,
      clusterName: 'shop',
      now,
    }).current();
    const kubeConfig = toKubeConfig({ ...access, token: 'k8s-aws-v1.simulated' }, { name: 'shop' });

    // Act
    const namespaces = await kubeConfig.makeApiClient(CoreV1Api).listNamespace();

    // Assess
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('kube-system');
  });

  it('answers ResourceNotFoundException for another name, which the adapter reports as not found', async () => {
    // Prepare
    const description = new EksClusterDescription({ eks: client, clusterName: 'absent', now });

    // Act
    const direct = await client
      .send(new DescribeClusterCommand({ name: 'absent' }))
      .catch((err: unknown) => err);
    const adapted = await description.current().catch((err: unknown) => err);

    // Assess
    expect(direct).toBeInstanceOf(ResourceNotFoundException);
    expect(adapted).toBeInstanceOf(NotFoundError);
  });
});
