/**
 * The environment variables the stack sets and the functions read, named once for both: lib/
 * writes them into each function's configuration, the composition roots read them at start.
 */
export const Variable = {
  clusterName: 'CLUSTER_NAME',
  stateTable: 'STATE_TABLE',
  claimsTable: 'CLAIMS_TABLE',
  workQueueUrl: 'WORK_QUEUE_URL',
  /** The deployment's starting limits, a JSON map, for the controller and the API. */
  clusterLimits: 'CLUSTER_LIMITS',
  /** The controller's: the bus its decisions go to. */
  eventBusName: 'EVENT_BUS_NAME',
  /** The controller's, `true` only with `adoptKarpenterNodes`. */
  adoptKarpenterNodes: 'ADOPT_KARPENTER_NODES',
  /** The audit webhook's bearer token. */
  auditTokenSecretArn: 'AUDIT_TOKEN_SECRET_ARN',
  /** The admission wake's path token, current and previous (`{"token", "previousToken"}`). */
  wakeTokenSecretArn: 'WAKE_TOKEN_SECRET_ARN',
  /** A self-managed cluster's kubeconfig secret; absent on EKS. */
  clusterSecretArn: 'CLUSTER_SECRET_ARN',
  /** A self-managed cluster, to the controller, for launches (EKS describes its own). */
  clusterEndpoint: 'CLUSTER_ENDPOINT',
  clusterCa: 'CLUSTER_CA',
  kubernetesVersion: 'KUBERNETES_VERSION',
  serviceCidr: 'SERVICE_CIDR',
} as const;

export type VariableName = (typeof Variable)[keyof typeof Variable];
