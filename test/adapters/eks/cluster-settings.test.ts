/** The cluster's settings for launches: from EKS DescribeCluster, or as given for a self-managed cluster. */
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  clusterDnsOf,
  eksClusterSettings,
  selfManagedClusterSettings,
} from '../../../functions/adapters/eks/cluster-settings.ts';
import { EksClusterDescription } from '../../../functions/adapters/eks/eks-cluster-description.ts';

describe('cluster settings', () => {
  const eks = mockClient(EKSClient);
  afterEach(() => eks.reset());
  // The mock stubs the client's class; the next file in this worker needs the real one.
  afterAll(() => eks.restore());

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

  it('reads a self-managed cluster’s CA from its kubeconfig secret when none is given', async () => {
    const lab = {
      name: 'lab',
      region: 'eu-west-1',
      endpoint: 'https://k8s.lab.example.com:6443',
      kubernetesVersion: '1.33',
    };
    const fromSecret = await selfManagedClusterSettings(lab, async () =>
      Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
    );
    expect(fromSecret.certificateAuthority).toBe(
      Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
    );
    const given = await selfManagedClusterSettings(
      { ...lab, certificateAuthority: 'Q0EgZnJvbSB0aGUgZW52aXJvbm1lbnQ=' },
      () => Promise.reject(new Error('the secret is not read')),
    );
    expect(given.certificateAuthority).toBe('Q0EgZnJvbSB0aGUgZW52aXJvbm1lbnQ=');
  });

  it('has no cluster DNS address without a service range', () => {
    expect(clusterDnsOf(undefined)).toBeUndefined();
    expect(clusterDnsOf('10.100.0.0/16')).toBe('10.100.0.10');
  });
});
