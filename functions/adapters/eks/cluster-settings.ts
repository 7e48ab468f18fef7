/**
 * What launches need to know about the cluster (the ec2 adapter's ClusterSettings): from EKS
 * DescribeCluster for an EKS cluster; for a self-managed one, from the settings the stack gives,
 * its CA from the kubeconfig secret when they have none (a bundle too large for Lambda's 4 KB of
 * variables). The cluster DNS address is the tenth of the service range, as EKS and kubeadm
 * assign it.
 */
import type { ClusterSettings } from '../ec2/cluster-settings.ts';
import type { EksClusterDescription } from './eks-cluster-description.ts';
import { fromCluster } from './mappers.ts';

/** `10.100.0.0/16` → `10.100.0.10`. */
export function clusterDnsOf(serviceCidr: string | undefined): string | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.\d+\/\d+$/.exec(serviceCidr ?? '');
  return match === null ? undefined : `${match[1]}.${match[2]}.${match[3]}.10`;
}

export async function eksClusterSettings(
  description: Pick<EksClusterDescription, 'current'>,
  name: string,
  region: string,
): Promise<ClusterSettings> {
  const cluster = await description.current();
  const endpoint = fromCluster(cluster, name);
  const serviceCidr = cluster?.kubernetesNetworkConfig?.serviceIpv4Cidr;
  const clusterDns = clusterDnsOf(serviceCidr);
  return {
    name,
    region,
    kubernetesVersion: cluster?.version ?? '',
    endpoint: endpoint.server,
    certificateAuthority: endpoint.certificateAuthorityData,
    ...(serviceCidr === undefined ? {} : { serviceCidr }),
    ...(clusterDns === undefined ? {} : { clusterDns }),
  };
}

/** A self-managed cluster as the stack describes it; without a CA, the secret's is read. */
export type SelfManagedCluster = Omit<ClusterSettings, 'certificateAuthority' | 'clusterDns'> & {
  readonly certificateAuthority?: string;
};

export async function selfManagedClusterSettings(
  { certificateAuthority, serviceCidr, ...cluster }: SelfManagedCluster,
  secretCa: () => Promise<string>,
): Promise<ClusterSettings> {
  const clusterDns = clusterDnsOf(serviceCidr);
  return {
    ...cluster,
    certificateAuthority: certificateAuthority ?? (await secretCa()),
    ...(serviceCidr === undefined ? {} : { serviceCidr }),
    ...(clusterDns === undefined ? {} : { clusterDns }),
  };
}
