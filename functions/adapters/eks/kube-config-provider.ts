/**
 * Ready KubeConfigs for the Kubernetes adapter. client-node copies a user's token into every
 * request but never renews it, so the token cannot live in one long-kept KubeConfig: `current()`
 * returns the same KubeConfig while the access is unchanged and a new one once the source has
 * refreshed its token. Ask for it at the start of every pass and build API clients from it.
 *
 * @example
 * const kubeConfigs = makeEksKubeConfigProvider({ eks: new EKSClient({}), clusterName: 'prod',
 *   region: 'us-west-2', credentials: defaultProvider(), now: () => new Date() });
 * const core = (await kubeConfigs.current()).makeApiClient(CoreV1Api);
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CredentialProvider, EksApi, Now, SecretsManagerApi } from './clients.ts';
import type { ClusterAccess, ClusterAccessSource } from './cluster-access.ts';
import { EksClusterAccess } from './eks-cluster-access.ts';
import type { EksClusterDescription } from './eks-cluster-description.ts';
import { type KubeConfigOptions, toKubeConfig } from './kube-config.ts';
import { SecretClusterAccess } from './secret-cluster-access.ts';

function sameAccess(a: ClusterAccess, b: ClusterAccess): boolean {
  return (
    a.server === b.server &&
    a.certificateAuthorityData === b.certificateAuthorityData &&
    a.token === b.token
  );
}

/** What a function asks for its KubeConfig, however the source is made. */
export type KubeConfigs = Pick<KubeConfigProvider, 'current'>;

export class KubeConfigProvider {
  readonly #source: ClusterAccessSource;
  readonly #options: KubeConfigOptions;
  #last: { readonly access: ClusterAccess; readonly kubeConfig: KubeConfig } | undefined;

  constructor(source: ClusterAccessSource, options: KubeConfigOptions) {
    this.#source = source;
    this.#options = options;
  }

  /** A KubeConfig whose token has minutes left; rejects as the source's `current()` does. */
  async current(): Promise<KubeConfig> {
    const access = await this.#source.current();
    if (this.#last !== undefined && sameAccess(this.#last.access, access)) {
      return this.#last.kubeConfig;
    }
    const kubeConfig = toKubeConfig(access, this.#options);
    this.#last = { access, kubeConfig };
    return kubeConfig;
  }
}

export interface EksKubeConfigOptions {
  readonly eks: EksApi;
  readonly clusterName: string;
  readonly region: string;
  readonly credentials: CredentialProvider;
  readonly now: Now;
  /** See KubeConfigOptions. @default false */
  readonly skipTLSVerify?: boolean;
  /** A description shared with other readers of the cluster. @default one of its own */
  readonly description?: EksClusterDescription;
}

/** For an EKS cluster, with the function's IAM identity. */
export function makeEksKubeConfigProvider(options: EksKubeConfigOptions): KubeConfigProvider {
  return new KubeConfigProvider(new EksClusterAccess(options), {
    name: options.clusterName,
    skipTLSVerify: options.skipTLSVerify ?? false,
  });
}

export interface SecretKubeConfigOptions {
  readonly secrets: SecretsManagerApi;
  readonly secretId: string;
  /** Names the KubeConfig's entries. */
  readonly clusterName: string;
  readonly now: Now;
  /** How long a read of the secret is kept. @default five minutes */
  readonly ttlMs?: number;
}

/** For a self-managed cluster, from a Secrets Manager secret. */
export function makeSecretKubeConfigProvider(options: SecretKubeConfigOptions): KubeConfigProvider {
  return new KubeConfigProvider(new SecretClusterAccess(options), { name: options.clusterName });
}
