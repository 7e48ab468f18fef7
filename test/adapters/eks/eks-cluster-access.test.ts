import {
  AccessDeniedException,
  DescribeClusterCommand,
  ResourceNotFoundException,
  ServerException,
  ThrottlingException,
} from '@aws-sdk/client-eks';
import { describe, expect, it } from 'vitest';
import { EksClusterAccess } from '../../../functions/adapters/eks/eks-cluster-access.ts';
import { EksClusterEndpoint } from '../../../functions/adapters/eks/eks-cluster-endpoint.ts';
import {
  InvalidConfigError,
  NotFoundError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import {
  aClock,
  aCredentialProvider,
  CA_DATA,
  CLUSTER_NAME,
  CREDENTIALS,
  decodeToken,
  describedCluster,
  ENDPOINT,
  expectedSignature,
  MINUTE,
  mockedClients,
  REGION,
} from './support.ts';

function setUp() {
  const clients = mockedClients();
  const clock = aClock();
  const endpoint = new EksClusterEndpoint({
    eks: clients.eks,
    clusterName: CLUSTER_NAME,
    now: clock.now,
  });
  return { ...clients, clock, endpoint };
}

const $metadata = { httpStatusCode: 400 };

describe('the eks cluster endpoint', () => {
  it('is the endpoint and ca data DescribeCluster returns for the cluster', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    eksMock.on(DescribeClusterCommand).resolves(describedCluster());
    // Act
    const described = await endpoint.current();
    // Assess
    expect(described).toEqual({ server: ENDPOINT, certificateAuthorityData: CA_DATA });
    expect(eksMock.commandCalls(DescribeClusterCommand)[0]?.args[0].input).toEqual({
      name: CLUSTER_NAME,
    });
  });

  it('is described once an hour', async () => {
    // Prepare
    const { clock, endpoint, eksMock } = setUp();
    eksMock.on(DescribeClusterCommand).resolves(describedCluster());
    await Promise.all([endpoint.current(), endpoint.current()]);
    clock.advance(59 * MINUTE);
    await endpoint.current();
    // Act
    clock.advance(MINUTE);
    await endpoint.current();
    // Assess
    expect(eksMock.commandCalls(DescribeClusterCommand)).toHaveLength(2);
  });

  it('is described again after a failure', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    eksMock
      .on(DescribeClusterCommand)
      .rejectsOnce(new ServerException({ message: 'internal failure', $metadata }))
      .resolves(describedCluster());
    // Act
    const first = endpoint.current();
    // Assess
    await expect(first).rejects.toThrow('internal failure');
    await expect(endpoint.current()).resolves.toMatchObject({ server: ENDPOINT });
  });

  it('fails naming the status while the cluster has no endpoint yet', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    eksMock
      .on(DescribeClusterCommand)
      .resolves(
        describedCluster({ endpoint: undefined, certificateAuthority: {}, status: 'CREATING' }),
      );
    // Act
    const describing = endpoint.current();
    // Assess
    await expect(describing).rejects.toThrow(InvalidConfigError);
    await expect(describing).rejects.toThrow(
      'describing eks cluster prod: it has no endpoint yet (status CREATING)',
    );
  });

  it('fails with NotFoundError naming a cluster that does not exist', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    const missing = new ResourceNotFoundException({
      message: 'No cluster found for name: prod.',
      $metadata,
    });
    eksMock.on(DescribeClusterCommand).rejects(missing);
    // Act
    const error = await endpoint.current().catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe(
      'describing eks cluster prod: it does not exist (ResourceNotFoundException)',
    );
    expect((error as Error).cause).toBe(missing);
  });

  it('fails with InvalidConfigError naming eks:DescribeCluster when access is denied', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    eksMock
      .on(DescribeClusterCommand)
      .rejects(new AccessDeniedException({ message: 'User is not authorized', $metadata }));
    // Act
    const error = await endpoint.current().catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as Error).message).toContain('grant eks:DescribeCluster');
    expect((error as Error).message).toContain('cluster prod');
  });

  it('fails with ThrottledError when throttled', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    eksMock
      .on(DescribeClusterCommand)
      .rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata }));
    // Act
    const describing = endpoint.current();
    // Assess
    await expect(describing).rejects.toThrow(ThrottledError);
  });

  it('passes other failures on unchanged', async () => {
    // Prepare
    const { endpoint, eksMock } = setUp();
    const failure = new ServerException({ message: 'internal failure', $metadata });
    eksMock.on(DescribeClusterCommand).rejects(failure);
    // Act
    const describing = endpoint.current();
    // Assess
    await expect(describing).rejects.toBe(failure);
  });
});

describe('eks cluster access', () => {
  it('joins the endpoint and ca with a token signed for the cluster', async () => {
    // Prepare
    const { eks, eksMock } = mockedClients();
    eksMock.on(DescribeClusterCommand).resolves(describedCluster());
    const access = new EksClusterAccess({
      eks,
      clusterName: CLUSTER_NAME,
      region: REGION,
      credentials: aCredentialProvider().get,
      now: aClock().now,
    });
    // Act
    const { server, certificateAuthorityData, token } = await access.current();
    // Assess
    expect({ server, certificateAuthorityData }).toEqual({
      server: ENDPOINT,
      certificateAuthorityData: CA_DATA,
    });
    const url = new URL(decodeToken(token));
    expect(url.searchParams.get('X-Amz-Signature')).toBe(
      expectedSignature(url.href, CREDENTIALS.secretAccessKey, { 'x-k8s-aws-id': CLUSTER_NAME }),
    );
  });
});
