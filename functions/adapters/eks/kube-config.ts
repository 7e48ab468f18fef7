/**
 * A `@kubernetes/client-node` KubeConfig for one cluster access: one cluster, one user carrying
 * the bearer token, one context joining them. The CA data is passed on as base64, which is what
 * the client decodes (client-node `config.ts`, `bufferFromFileOrString`).
 */
import http from 'node:http';
import https from 'node:https';
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';
import type { ClusterAccess } from './cluster-access.ts';

/**
 * How long a connection to the API server is kept after its last request: long enough for a
 * pass's requests to share it, and closed long before the load balancer in front of EKS's API
 * servers would drop it (350 s idle), so a function thawed later opens a fresh one.
 */
const IDLE_CONNECTION_MS = 10_000;

/** An agent like `made` that keeps its connections for the next request. */
function keptAlive(made: http.Agent | https.Agent | undefined): http.Agent | undefined {
  if (made === undefined) return undefined;
  // Node keeps every agent's options (CA, client certificate, server name) on it.
  const { options: madeWith } = made as { options?: https.AgentOptions };
  const options = { ...madeWith, keepAlive: true, timeout: IDLE_CONNECTION_MS };
  return made instanceof https.Agent ? new https.Agent(options) : new http.Agent(options);
}

/**
 * client-node 1.4 gives every request an agent of its own (kubernetes-client/javascript#2893):
 * every call of a pass opened its own connection, with a TLS handshake and the CA parsed again.
 * This KubeConfig hands each request one agent made once, which keeps its connections alive:
 * the API clients' calls (`applySecurityAuthentication`) and the watches' (`applyToHTTPSOptions`,
 * through `applyToFetchOptions`) alike.
 */
class OneAgentKubeConfig extends KubeConfig {
  #agent: http.Agent | undefined;

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const agent = this.#keptAlive(context.getAgent());
    if (agent !== undefined) context.setAgent(agent);
  }

  override async applyToHTTPSOptions(
    options: Parameters<KubeConfig['applyToHTTPSOptions']>[0],
  ): Promise<void> {
    await super.applyToHTTPSOptions(options);
    const agent = this.#keptAlive(options.agent as http.Agent | undefined);
    if (agent !== undefined) options.agent = agent;
  }

  /** The one agent, made like the first one client-node made. */
  #keptAlive(made: http.Agent | https.Agent | undefined): http.Agent | undefined {
    this.#agent ??= keptAlive(made);
    return this.#agent;
  }
}

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
  const kubeConfig = new OneAgentKubeConfig();
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
