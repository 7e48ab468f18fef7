/**
 * How a deployed function reaches its cluster, as the stack configures it: with the kubeconfig
 * in the Secrets Manager secret it names (a self-managed cluster), or else as itself on EKS.
 * One place for the controller, the interruption function and the API.
 */
import { EKSClient } from '@aws-sdk/client-eks';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { Now } from './clients.ts';
import type { EksClusterDescription } from './eks-cluster-description.ts';
import {
  type KubeConfigProvider,
  makeEksKubeConfigProvider,
  makeSecretKubeConfigProvider,
} from './kube-config-provider.ts';

export interface DeployedClusterOptions {
  readonly region: string;
  readonly clusterName: string;
  /** The kubeconfig secret of a self-managed cluster; EKS when absent. */
  readonly clusterSecretArn?: string;
  readonly now: Now;
  /** A client the caller already has, for EKS. @default a new one for the region */
  readonly eks?: EKSClient;
  /** EKS: a description the caller reads as well, so the cluster is described once. */
  readonly description?: EksClusterDescription;
}

export function deployedKubeConfigs(options: DeployedClusterOptions): KubeConfigProvider {
  const { region, clusterName, clusterSecretArn, now } = options;
  if (clusterSecretArn === undefined) {
    return makeEksKubeConfigProvider({
      eks: options.eks ?? new EKSClient({ region }),
      clusterName,
      region,
      credentials: defaultProvider(),
      now,
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }
  return makeSecretKubeConfigProvider({
    secrets: new SecretsManagerClient({ region }),
    secretId: clusterSecretArn,
    clusterName,
    now,
  });
}
