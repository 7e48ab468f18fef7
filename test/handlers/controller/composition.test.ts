/**
 * The controller's composition root: configured from the environment the stack sets, it starts
 * without calling AWS, and names what is missing when a setting is not there; the cluster's
 * settings for launches come from EKS DescribeCluster.
 */
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EksClusterDescription } from '../../../functions/adapters/eks/eks-cluster-description.ts';
import {
  clusterDnsOf,
  eksClusterSettings,
  environmentClusterSettings,
} from '../../../functions/handlers/controller/cluster-settings.ts';

const ENVIRONMENT = {
  AWS_REGION: 'us-east-1',
  CLUSTER_NAME: 'shop-prod',
  STATE_TABLE: 'nodesmith-shop-prod-state',
  CLAIMS_TABLE: 'nodesmith-shop-prod-claims',
  WORK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/nodesmith-work',
  EVENT_BUS_NAME: 'nodesmith-shop-prod',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the controller composition root', () => {
  it('starts from the environment alone', async () => {
    for (const [name, value] of Object.entries(ENVIRONMENT)) vi.stubEnv(name, value);
    const { handler } = await import('../../../functions/handlers/controller/index.ts');
    expect(typeof handler).toBe('function');
  });

  it('names the setting that is missing', async () => {
    for (const [name, value] of Object.entries(ENVIRONMENT)) vi.stubEnv(name, value);
    vi.stubEnv('CLAIMS_TABLE', '');
    await expect(import('../../../functions/handlers/controller/index.ts')).rejects.toThrow(
      'starting the controller: CLAIMS_TABLE is not set',
    );
  });
});

describe('cluster settings from EKS', () => {
  const eks = mockClient(EKSClient);
  afterEach(() => eks.reset());

  it('takes version, endpoint, CA and service range, and derives the cluster DNS address', async () => {
    eks.on(DescribeClusterCommand, { name: 'shop-prod' }).resolves({
      cluster: {
        name: 'shop-prod',
        version: '1.31',
        endpoint: 'https://0F1E2D3C.gr7.us-east-1.eks.amazonaws.com',
        certificateAuthority: { data: 'LS0tLS1CRUdJTi==' },
        kubernetesNetworkConfig: { serviceIpv4Cidr: '172.20.0.0/16' },
        status: 'ACTIVE',
      },
    });
    const description = new EksClusterDescription({
      eks: new EKSClient({ region: 'us-east-1' }),
      clusterName: 'shop-prod',
      now: () => new Date('2026-11-26T12:00:00Z'),
    });
    const settings = await eksClusterSettings(description, 'shop-prod', 'us-east-1');
    expect(settings).toEqual({
      name: 'shop-prod',
      region: 'us-east-1',
      kubernetesVersion: '1.31',
      endpoint: 'https://0F1E2D3C.gr7.us-east-1.eks.amazonaws.com',
      certificateAuthority: 'LS0tLS1CRUdJTi==',
      serviceCidr: '172.20.0.0/16',
      clusterDns: '172.20.0.10',
    });
  });

  it('reads a self-managed cluster’s CA from its kubeconfig secret when the environment has none', async () => {
    vi.stubEnv('CLUSTER_ENDPOINT', 'https://k8s.lab.example.com:6443');
    vi.stubEnv('KUBERNETES_VERSION', '1.33');
    vi.stubEnv('CLUSTER_CA', '');
    const setting = (name: string) => process.env[name] ?? '';
    const fromSecret = await environmentClusterSettings('lab', 'eu-west-1', setting, async () =>
      Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
    );
    expect(fromSecret.certificateAuthority).toBe(
      Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
    );
    vi.stubEnv('CLUSTER_CA', 'Q0EgZnJvbSB0aGUgZW52aXJvbm1lbnQ=');
    const fromEnvironment = await environmentClusterSettings('lab', 'eu-west-1', setting, () =>
      Promise.reject(new Error('the secret is not read')),
    );
    expect(fromEnvironment.certificateAuthority).toBe('Q0EgZnJvbSB0aGUgZW52aXJvbm1lbnQ=');
  });

  it('has no cluster DNS address without a service range', () => {
    expect(clusterDnsOf(undefined)).toBeUndefined();
    expect(clusterDnsOf('10.100.0.0/16')).toBe('10.100.0.10');
  });
});
