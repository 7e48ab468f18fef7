/**
 * `spec.tags`: merged onto instances, volumes and launch templates. Keys Karpenter uses to find
 * what it owns may not be overridden, or it would lose track of its instances
 * (aws: pkg/apis/v1/ec2nodeclass.go `Tags` CEL rules).
 */
import * as z from 'zod';

const RESTRICTED_TAGS = [
  'eks:eks-cluster-name',
  'karpenter.sh/nodepool',
  'karpenter.sh/nodeclaim',
  'karpenter.k8s.aws/ec2nodeclass',
];
const RESTRICTED_PREFIX = 'kubernetes.io/cluster';

export function tagKeyProblem(key: string): string | undefined {
  if (key === '') return 'tag keys may not be empty';
  if (RESTRICTED_TAGS.includes(key) || key.startsWith(RESTRICTED_PREFIX)) {
    return `tag ${key} is restricted; Karpenter sets ${[...RESTRICTED_TAGS, `${RESTRICTED_PREFIX}/*`].join(', ')} itself`;
  }
  return undefined;
}

export const nodeClassTags = z.record(z.string(), z.string()).superRefine((tags, ctx) => {
  for (const key of Object.keys(tags)) {
    const problem = tagKeyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: [key] });
  }
});
