/**
 * The `cdk deploy` context of the simulated cluster: on EKS with its audit log group; as a
 * self-managed cluster, one lib/config.ts accepts — the audit webhook on, the CA left to the
 * kubeconfig secret — naming the complete ARN Secrets Manager gives the secret the operator makes.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { SimulatedSecrets } from '../../../simulator/aws/secrets-manager/simulated-secrets.ts';
import { deploymentContext } from '../../../simulator/deployed/deployment-context.ts';
import {
  clusterAccessSecret,
  SELF_MANAGED_ENDPOINT,
} from '../../../simulator/deployed/self-managed-cluster.ts';

describe('the deployment context of the simulated cluster', () => {
  it('is an EKS cluster with its audit log group unless told otherwise', () => {
    // Act
    const config = loadConfig(deploymentContext({ adoptKarpenterNodes: true }));
    // Assess
    expect(config.cluster).toEqual({ kind: 'eks' });
    expect(config.auditLogGroupName).toBe('/aws/eks/simulated/cluster');
    expect(config.auditWebhook).toBe(false);
    expect(config.adoptKarpenterNodes).toBe(true);
  });

  it('is a self-managed cluster lib/config.ts accepts, its secret the one the operator creates', () => {
    // Prepare
    const secrets = new SimulatedSecrets({
      region: 'eu-west-1',
      account: '111122223333',
      now: () => 0,
    });
    const secret = clusterAccessSecret('https://127.0.0.1:6443');
    // Act
    const config = loadConfig(deploymentContext({ selfManaged: { region: 'eu-west-1' } }));
    // Assess
    expect(config.cluster).toEqual({
      kind: 'self-managed',
      endpoint: SELF_MANAGED_ENDPOINT,
      kubeconfigSecretArn: secrets.put(secret.name, secret.value),
      kubernetesVersion: '1.31',
      serviceCidr: '10.100.0.0/16',
    });
    expect(config.auditWebhook).toBe(true);
    expect(config.auditLogGroupName).toBeUndefined();
    expect(JSON.parse(secret.value)).toMatchObject({ endpoint: 'https://127.0.0.1:6443' });
  });
});
