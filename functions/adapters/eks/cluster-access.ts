/**
 * What a Kubernetes client needs to reach a cluster's API server: where it is, the CA that signs
 * its serving certificate, and a bearer token. EKS clusters yield it from DescribeCluster and a
 * signed STS request (EksClusterAccess); self-managed clusters from a Secrets Manager secret
 * (SecretClusterAccess).
 */

/** The API server's address and the CA bundle to trust it by. */
export interface ClusterEndpoint {
  /** The API server URL, e.g. `https://ABCDEF.gr7.us-west-2.eks.amazonaws.com`. */
  readonly server: string;
  /** Base64 of the PEM bundle, as kubeconfig's `certificate-authority-data` holds it. */
  readonly certificateAuthorityData: string;
}

export interface ClusterAccess extends ClusterEndpoint {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token: string;
}

export interface ClusterAccessSource {
  /**
   * Access that is good for at least a few more minutes. Cached by the source: call it for every
   * controller pass rather than keeping one answer. Rejects with NotFoundError when the cluster or
   * secret does not exist, InvalidConfigError when a permission is missing or the configuration
   * is unusable, ThrottledError when AWS refused for rate.
   */
  current(): Promise<ClusterAccess>;
}
