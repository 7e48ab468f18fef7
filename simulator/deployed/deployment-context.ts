/**
 * The `cdk deploy` context of the simulated cluster, as an operator passes it for EKS: the
 * cluster the scenarios' EC2NodeClasses discover (`karpenter.sh/discovery: simulated`), the node
 * role they name, and the log group EKS writes the cluster's audit log to.
 */
export interface DeploymentContext {
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  readonly auditLogGroupName: string;
}

export const SIMULATED_DEPLOYMENT: DeploymentContext = {
  clusterName: 'simulated',
  nodeRoleArn: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-simulated',
  auditLogGroupName: '/aws/eks/simulated/cluster',
};

/** The same, as `cdk synth -c key=value` takes it. */
export function synthesisContext(context: DeploymentContext): Record<string, string> {
  return { ...context };
}
