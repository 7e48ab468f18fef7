/**
 * The simulated cluster run as a self-managed one (`nodesmith simulate --deployed
 * --self-managed`), set up as docs/cluster-access.md ("Self-managed clusters") tells its operator:
 * the stack deployed with the cluster's endpoint, version and service range and the complete ARN
 * of a Secrets Manager secret holding `{endpoint, certificateAuthorityData, token}`; the token one
 * kube-apiserver authenticates into the group deploy/rbac.yaml binds to the `nodesmith`
 * ClusterRole, here through its static token file (`--token-auth-file`), beside the
 * administrator's own in `system:masters`.
 */
import { ADMINISTRATOR_TOKEN } from '../api-server/administrator-token.ts';
import { CERTIFICATE_AUTHORITY_DATA } from '../api-server/serving-certificate.ts';
import { secretArn } from '../iam/physical-resources.ts';
import { simulatedAccount } from '../iam/simulated-account.ts';

/**
 * The API server's address as the template carries it, for the nodes' bootstrap. The simulated
 * server listens on a port of its own each run, which the kubeconfig secret holds; the template
 * keeps this one so that the synthesized stack is reused from run to run.
 */
export const SELF_MANAGED_ENDPOINT = 'https://kube-apiserver.simulated:6443';

/** The secret the operator creates before `cdk deploy`, named as the guide's example names it. */
const CLUSTER_ACCESS_SECRET = 'nodesmith/simulated/cluster-access';

/** The bearer token the secret holds; the simulation's own, guarding nothing. */
const NODESMITH_TOKEN = 'nodesmith-simulated-cluster-access-token';

/** The group deploy/rbac.yaml binds to the `nodesmith` ClusterRole. */
const CONTROLLER_GROUP = 'nodesmith:controller';

/** The `-c key=value` context of a self-managed cluster, as `cdk deploy` takes it. */
export function selfManagedContext(region: string) {
  return {
    clusterEndpoint: SELF_MANAGED_ENDPOINT,
    clusterSecretArn: clusterAccessSecretArn(region),
    kubernetesVersion: '1.31',
    serviceCidr: '10.100.0.0/16',
    auditWebhook: 'true',
  } as const;
}

/** The complete ARN, with the six characters Secrets Manager appends, of the secret in `region`. */
export function clusterAccessSecretArn(region: string): string {
  return secretArn(CLUSTER_ACCESS_SECRET, simulatedAccount({ region }));
}

/** The secret as `aws secretsmanager create-secret --name … --secret-string` stores it. */
export function clusterAccessSecret(apiServerUrl: string): { name: string; value: string } {
  const value = {
    endpoint: apiServerUrl,
    certificateAuthorityData: CERTIFICATE_AUTHORITY_DATA,
    token: NODESMITH_TOKEN,
  };
  return { name: CLUSTER_ACCESS_SECRET, value: JSON.stringify(value) };
}

/**
 * kube-apiserver's `--token-auth-file`: Nodesmith's token as a user in the controller's group,
 * and the token the simulation's own clients send, the cluster's administrator's.
 */
export const TOKEN_FILE = [
  `${NODESMITH_TOKEN},nodesmith,nodesmith,"${CONTROLLER_GROUP}"`,
  `${ADMINISTRATOR_TOKEN},kubernetes-admin,kubernetes-admin,"system:masters"`,
].join('\n');
