/** A client configuration for the fake server, as the Kubernetes adapter builds one for EKS. */

import { KubeConfig } from '@kubernetes/client-node';
import { ADMINISTRATOR_TOKEN } from './administrator-token.ts';

/** `http:` servers are only accepted with `skipTLSVerify`; the token is sent as a Bearer header. */
export function kubeConfigFor(url: string, token = ADMINISTRATOR_TOKEN): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'fake', server: url, skipTLSVerify: true }],
    users: [{ name: 'fake-user', token }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'fake-user' }],
    currentContext: 'fake',
  });
  return kubeConfig;
}
