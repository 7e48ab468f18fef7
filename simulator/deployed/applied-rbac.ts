/**
 * The RBAC an operator applies next to the stack (docs/cluster-access.md): deploy/rbac.yaml
 * always, and deploy/rbac-adoption.yaml only when the stack adopts Karpenter's nodes — which the
 * controller's environment says (`ADOPT_KARPENTER_NODES=true`).
 */
import { join } from 'node:path';
import { Variable } from '../../functions/contract/environment.ts';
import type { CloudFormationTemplate } from '../synthesis/cloud-assembly.ts';
import { resourcesOfType } from '../synthesis/cloud-assembly.ts';

function adopts(template: CloudFormationTemplate): boolean {
  return resourcesOfType(template, 'AWS::Lambda::Function').some(([, p]) => {
    const variables = (p.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    return variables?.[Variable.adoptKarpenterNodes] === 'true';
  });
}

export function appliedRbacFiles(projectRoot: string, template: CloudFormationTemplate): string[] {
  const files = [join(projectRoot, 'deploy', 'rbac.yaml')];
  if (adopts(template)) files.push(join(projectRoot, 'deploy', 'rbac-adoption.yaml'));
  return files;
}
