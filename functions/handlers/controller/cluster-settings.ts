/**
 * What launches need to know about the cluster (the ec2 adapter's ClusterSettings): from EKS
 * DescribeCluster for an EKS cluster, from the environment the stack sets for a self-managed one,
 * whose CA comes from the kubeconfig secret when the environment has none (a bundle too large
 * for Lambda's 4 KB of variables). The cluster DNS address is the tenth of the service range, as
 * EKS and kubeadm assign it.
 */
import type { ClusterSettings } from '../../adapters/ec2/cluster-settings.ts';
import type { EksClusterDescription } from '../../adapters/eks/eks-cluster-description.ts';
import { fromCluster } from '../../adapters/eks/mappers.ts';

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

/**
 * A self-managed cluster: `CLUSTER_ENDPOINT`, `KUBERNETES_VERSION`, and `CLUSTER_CA` (base64 PEM)
 * or, without it, the CA the kubeconfig secret holds.
 */
export async function environmentClusterSettings(
  name: string,
  region: string,
  setting: (variable: string) => string,
  secretCa: () => Promise<string>,
): Promise<ClusterSettings> {
  const serviceCidr = process.env.SERVICE_CIDR;
  const clusterDns = clusterDnsOf(serviceCidr);
  const ca = process.env.CLUSTER_CA;
  return {
    name,
    region,
    kubernetesVersion: setting('KUBERNETES_VERSION'),
    endpoint: setting('CLUSTER_ENDPOINT'),
    certificateAuthority: ca === undefined || ca === '' ? await secretCa() : ca,
    ...(serviceCidr === undefined ? {} : { serviceCidr }),
    ...(clusterDns === undefined ? {} : { clusterDns }),
  };
}
