/**
 * A `@kubernetes/client-node` KubeConfig for one cluster access: one cluster, one user carrying
 * the bearer token, one context joining them. The CA data is passed on as base64, which is what
 * the client decodes (client-node `config.ts`, `bufferFromFileOrString`).
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterAccess } from './cluster-access.ts';

export interface KubeConfigOptions {
  /** Names the cluster, user and context entries; the cluster's name reads best in errors. */
  readonly name: string;
  /**
   * Skips verifying the server's certificate. client-node refuses `http:` servers without it, so
   * it exists for local test servers only. @default false
   */
  readonly skipTLSVerify?: boolean;
}

export function toKubeConfig(access: ClusterAccess, options: KubeConfigOptions): KubeConfig {
  const { name } = options;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name,
        server: access.server,
        caData: access.certificateAuthorityData,
        skipTLSVerify: options.skipTLSVerify ?? false,
      },
    ],
    users: [{ name, token: access.token }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return kubeConfig;
}
