/**
 * The `cdk deploy` context of the simulated cluster, as an operator passes it for EKS: the
 * cluster the scenarios' EC2NodeClasses discover (`karpenter.sh/discovery: simulated`), the node
 * role they name, and the log group EKS writes the cluster's audit log to. A plain record, so it
 * is also the `-c key=value` context `cdk synth` takes.
 */
export type DeploymentContext = {
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  readonly auditLogGroupName: string;
  /** Set when the operator has Nodesmith adopt Karpenter's running nodes. */
  readonly adoptKarpenterNodes?: 'true';
};

export const SIMULATED_DEPLOYMENT: DeploymentContext = {
  clusterName: 'simulated',
  nodeRoleArn: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-simulated',
  auditLogGroupName: '/aws/eks/simulated/cluster',
};

/** The context of a run: the simulated cluster's, adopting Karpenter's nodes when asked to. */
export function deploymentContext(options: { adoptKarpenterNodes?: boolean }): DeploymentContext {
  return options.adoptKarpenterNodes
    ? { ...SIMULATED_DEPLOYMENT, adoptKarpenterNodes: 'true' }
    : SIMULATED_DEPLOYMENT;
}
