/**
 * The `cdk deploy` context of the simulated cluster, as an operator passes it: the cluster the
 * scenarios' EC2NodeClasses discover (`karpenter.sh/discovery: simulated`) and the node role they
 * name; for EKS, the log group EKS writes the cluster's audit log to; for a self-managed cluster,
 * its endpoint, version, service range, kubeconfig secret and audit webhook
 * (self-managed-cluster.ts). A plain record, so it is also the `-c key=value` context `cdk synth`
 * takes.
 */
import { selfManagedContext } from './self-managed-cluster.ts';

export type DeploymentContext = {
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  /** EKS: the audit log's group, subscribed to the relay. */
  readonly auditLogGroupName?: string;
  /** Set when the operator has Nodesmith adopt Karpenter's running nodes. */
  readonly adoptKarpenterNodes?: 'true';
} & Partial<ReturnType<typeof selfManagedContext>>;

const SIMULATED_CLUSTER = {
  clusterName: 'simulated',
  nodeRoleArn: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-simulated',
} as const;

/** Where EKS writes the simulated cluster's audit log. */
const EKS_AUDIT_LOG_GROUP = `/aws/eks/${SIMULATED_CLUSTER.clusterName}/cluster`;

export interface ContextOptions {
  readonly adoptKarpenterNodes?: boolean;
  /** The cluster is self-managed (`--self-managed`): no EKS, its secret in this region. */
  readonly selfManaged?: { readonly region: string };
}

/** The context of a run: the simulated cluster's, on EKS or self-managed, adopting when asked to. */
export function deploymentContext(options: ContextOptions): DeploymentContext {
  return {
    ...SIMULATED_CLUSTER,
    ...(options.selfManaged === undefined
      ? { auditLogGroupName: EKS_AUDIT_LOG_GROUP }
      : selfManagedContext(options.selfManaged.region)),
    ...(options.adoptKarpenterNodes ? { adoptKarpenterNodes: 'true' } : {}),
  };
}
