/**
 * The cluster the adapter launches nodes into: what the bootstrap user data, the tags and the
 * AMI alias parameters need. The composition root fills it from EKS DescribeCluster.
 */
export interface ClusterSettings {
  readonly name: string;
  readonly region: string;
  /** `1.31`: picks the EKS-optimized AMIs an alias resolves to. */
  readonly kubernetesVersion: string;
  /** The API server URL (`cluster.endpoint`). */
  readonly endpoint: string;
  /** Base64 of the PEM bundle, as `cluster.certificateAuthority.data` returns it. */
  readonly certificateAuthority: string;
  /** The service CIDR (`kubernetesNetworkConfig.serviceIpv4Cidr`), when known. */
  readonly serviceCidr?: string;
  /** The cluster DNS service IP, used when the EC2NodeClass sets no `kubelet.clusterDNS`. */
  readonly clusterDns?: string;
}
