/**
 * An EKS cluster's API server URL and CA bundle, from its description (DescribeCluster, kept for
 * an hour). Private-endpoint clusters need the function in the VPC.
 */
import type { EksApi, Now } from './clients.ts';
import type { ClusterEndpoint } from './cluster-access.ts';
import { EksClusterDescription } from './eks-cluster-description.ts';
import { fromCluster } from './mappers.ts';

export interface EksClusterEndpointOptions {
  readonly eks: EksApi;
  readonly clusterName: string;
  readonly now: Now;
  /** A description shared with other readers of the cluster. @default one of its own */
  readonly description?: EksClusterDescription;
}

export class EksClusterEndpoint {
  readonly #description: EksClusterDescription;

  constructor(options: EksClusterEndpointOptions) {
    this.#description = options.description ?? new EksClusterDescription(options);
  }

  /**
   * Rejects with NotFoundError when the cluster does not exist, InvalidConfigError without
   * `eks:DescribeCluster` or while the cluster has no endpoint yet, ThrottledError on throttling.
   */
  async current(): Promise<ClusterEndpoint> {
    const cluster = await this.#description.current();
    return fromCluster(cluster, this.#description.clusterName);
  }
}
