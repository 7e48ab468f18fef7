/**
 * An EKS cluster's API server URL and CA bundle from DescribeCluster, kept for an hour: they are
 * fixed for the cluster's life in practice, and the hour bounds how long a warm container would
 * trust a rotated CA's predecessor. Private-endpoint clusters need the function in the VPC.
 */
import { DescribeClusterCommand } from '@aws-sdk/client-eks';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { EksApi, Now } from './clients.ts';
import type { ClusterEndpoint } from './cluster-access.ts';
import { toPortError } from './errors.ts';
import { fromCluster } from './mappers.ts';

export const ENDPOINT_TTL_MS = 60 * 60_000;

export interface EksClusterEndpointOptions {
  readonly eks: EksApi;
  readonly clusterName: string;
  readonly now: Now;
}

export class EksClusterEndpoint {
  readonly #options: EksClusterEndpointOptions;
  readonly #endpoint: TtlCache<ClusterEndpoint>;

  constructor(options: EksClusterEndpointOptions) {
    this.#options = options;
    this.#endpoint = new TtlCache(options.now);
  }

  /**
   * Rejects with NotFoundError when the cluster does not exist, InvalidConfigError without
   * `eks:DescribeCluster` or while the cluster has no endpoint yet, ThrottledError on throttling.
   */
  current(): Promise<ClusterEndpoint> {
    return this.#endpoint.getOrLoadExpiring('', () => this.#describe());
  }

  async #describe(): Promise<{ value: ClusterEndpoint; replaceAt: Date }> {
    const { eks, clusterName, now } = this.#options;
    try {
      const output = await eks.send(new DescribeClusterCommand({ name: clusterName }));
      const value = fromCluster(output.cluster, clusterName);
      return { value, replaceAt: new Date(now().getTime() + ENDPOINT_TTL_MS) };
    } catch (err) {
      throw toPortError(err, {
        doing: `describing eks cluster ${clusterName}`,
        permission: 'eks:DescribeCluster',
      });
    }
  }
}
