/**
 * An EKS cluster as DescribeCluster answers, kept for an hour: the endpoint and CA a Kubernetes
 * client needs, and the version and service range launches need, from one call. The controller
 * shares one description between its kubeconfig and its launch settings, so a cold start
 * describes the cluster once and warm invocations not at all.
 */
import { type Cluster, DescribeClusterCommand } from '@aws-sdk/client-eks';
import { TtlCache } from '../cache/ttl-cache.ts';
import type { EksApi, Now } from './clients.ts';
import { toPortError } from './errors.ts';

/** Fixed for the cluster's life in practice; the hour bounds how long a rotated CA's predecessor is trusted. */
export const DESCRIPTION_TTL_MS = 60 * 60_000;

export interface EksClusterDescriptionOptions {
  readonly eks: EksApi;
  readonly clusterName: string;
  readonly now: Now;
}

export class EksClusterDescription {
  readonly #options: EksClusterDescriptionOptions;
  readonly #cluster: TtlCache<Cluster | undefined>;

  constructor(options: EksClusterDescriptionOptions) {
    this.#options = options;
    this.#cluster = new TtlCache(options.now);
  }

  get clusterName(): string {
    return this.#options.clusterName;
  }

  /**
   * Rejects with NotFoundError when the cluster does not exist, InvalidConfigError without
   * `eks:DescribeCluster`, ThrottledError on throttling; a failed call is not kept.
   */
  current(): Promise<Cluster | undefined> {
    return this.#cluster.getOrLoadExpiring('', () => this.#describe());
  }

  async #describe(): Promise<{ value: Cluster | undefined; replaceAt: Date }> {
    const { eks, clusterName, now } = this.#options;
    try {
      const output = await eks.send(new DescribeClusterCommand({ name: clusterName }));
      return {
        value: output.cluster,
        replaceAt: new Date(now().getTime() + DESCRIPTION_TTL_MS),
      };
    } catch (err) {
      throw toPortError(err, {
        doing: `describing eks cluster ${clusterName}`,
        permission: 'eks:DescribeCluster',
      });
    }
  }
}
