/**
 * Access to an EKS cluster with the function's own IAM identity: endpoint and CA from
 * DescribeCluster, a token signed in code. No aws-iam-authenticator or AWS CLI binary is needed;
 * the cluster must have an access entry for the function's role (docs/cluster-access.md, "EKS access entry and token").
 */

import type { CredentialProvider, EksApi, Now } from './clients.ts';
import type { ClusterAccess, ClusterAccessSource } from './cluster-access.ts';
import type { EksClusterDescription } from './eks-cluster-description.ts';
import { EksClusterEndpoint } from './eks-cluster-endpoint.ts';
import { EksTokenProvider } from './eks-token-provider.ts';

export interface EksClusterAccessOptions {
  readonly eks: EksApi;
  readonly clusterName: string;
  readonly region: string;
  readonly credentials: CredentialProvider;
  readonly now: Now;
  /** A description shared with other readers of the cluster. @default one of its own */
  readonly description?: EksClusterDescription;
}

export class EksClusterAccess implements ClusterAccessSource {
  readonly #endpoint: EksClusterEndpoint;
  readonly #tokens: EksTokenProvider;

  constructor(options: EksClusterAccessOptions) {
    this.#endpoint = new EksClusterEndpoint(options);
    this.#tokens = new EksTokenProvider(options);
  }

  async current(): Promise<ClusterAccess> {
    const [endpoint, token] = await Promise.all([this.#endpoint.current(), this.#tokens.current()]);
    return { ...endpoint, token: token.token };
  }
}
