/**
 * The template's EKS access entries (`AWS::EKS::AccessEntry`, lib/cluster-access.ts) for one
 * cluster, as EKS holds them once deployed: each function role's ARN and the Kubernetes groups
 * deploy/rbac.yaml binds.
 */
import type { AccessEntry } from '../aws/eks/eks-authenticator.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';

export function accessEntries(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
  clusterName: string,
): AccessEntry[] {
  return resourcesOfType(template, 'AWS::EKS::AccessEntry')
    .filter(([, p]) => resolve(p.ClusterName) === clusterName)
    .map(([, p]) => ({
      principalArn: resolve(p.PrincipalArn),
      kubernetesGroups: ((p.KubernetesGroups ?? []) as unknown[]).map(resolve),
      ...(p.Username === undefined ? {} : { username: resolve(p.Username) }),
    }));
}
