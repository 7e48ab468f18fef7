/**
 * The tags Nodesmith writes, with Karpenter's keys so that IAM conditions, cost reports and
 * tools written for Karpenter keep working (aws: pkg/utils/utils.go `GetTags`). Ownership tags
 * are written last: an EC2NodeClass may not override them (its schema rejects them too).
 */
import { Label } from '../../domain/labels.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { LaunchableNodeClass } from '../../ports/cloud-provider.ts';
import type { ClusterSettings } from './cluster-settings.ts';

export const TagKey = {
  nodeClaim: 'karpenter.sh/nodeclaim',
  eksClusterName: 'eks:eks-cluster-name',
  name: 'Name',
  /** Marks launch templates a cluster's autoscaler created. */
  launchTemplateCluster: 'karpenter.k8s.aws/cluster',
} as const;

export function clusterTagKey(clusterName: string): string {
  return `kubernetes.io/cluster/${clusterName}`;
}

function ownershipTags(
  clusterName: string,
  nodeClass: LaunchableNodeClass,
): Record<string, string> {
  return {
    [clusterTagKey(clusterName)]: 'owned',
    [TagKey.eksClusterName]: clusterName,
    [Label.nodeClass]: nodeClass.metadata.name,
  };
}

/** Tags of the instance, its volumes and the fleet: found again by GC through the claim's name. */
export function launchTags(
  clusterName: string,
  claim: NodeClaimRecord,
  nodeClass: LaunchableNodeClass,
): Record<string, string> {
  return {
    [TagKey.name]: claim.name,
    ...nodeClass.spec.tags,
    ...ownershipTags(clusterName, nodeClass),
    [Label.nodePool]: claim.nodePool,
    [TagKey.nodeClaim]: claim.name,
  };
}

/**
 * Tags of a launch template and the network interfaces it creates. Nothing claim-specific: one
 * template serves every claim with the same configuration.
 */
export function launchTemplateTags(
  clusterName: string,
  nodeClass: LaunchableNodeClass,
): Record<string, string> {
  return { ...nodeClass.spec.tags, ...ownershipTags(clusterName, nodeClass) };
}

/**
 * Tags of an instance profile Nodesmith creates for a class's `role`: Karpenter's
 * `InstanceProfileTags` plus the region, so a profile is traced to its cluster, class and region.
 */
export function instanceProfileTags(
  cluster: Pick<ClusterSettings, 'name' | 'region'>,
  nodeClass: LaunchableNodeClass,
): Record<string, string> {
  return {
    ...nodeClass.spec.tags,
    ...ownershipTags(cluster.name, nodeClass),
    [Label.region]: cluster.region,
  };
}
