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
};

export const SIMULATED_DEPLOYMENT: DeploymentContext = {
  clusterName: 'simulated',
  nodeRoleArn: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-simulated',
  auditLogGroupName: '/aws/eks/simulated/cluster',
};
