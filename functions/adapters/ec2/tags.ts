/**
 * The tags Nodesmith writes. `nodesmith.io/cluster` is its own: listing, orphan cleanup and the
 * IAM conditions on terminating and tagging instances all require it, so nothing Nodesmith did
 * not launch (Karpenter's instances, managed node groups) is ever in reach. Beside it come
 * Karpenter's keys (aws: pkg/utils/utils.go `GetTags`) that tools and cost reports read, except
 * `karpenter.sh/nodepool` on instances: a Karpenter still running in the cluster lists its
 * instances by that key (with `karpenter.k8s.aws/ec2nodeclass` and `eks:eks-cluster-name`) and
 * terminates those without one of its NodeClaims, and its IAM policy lets it terminate and tag
 * any instance carrying it (aws: pkg/providers/instance/instance.go `List`,
 * pkg/controllers/nodeclaim/garbagecollection). The pool goes in `nodesmith.io/nodepool`
 * instead. Ownership tags are written last: an EC2NodeClass may not override them.
 */
import { Label } from '../../domain/labels.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { LaunchableNodeClass } from '../../ports/cloud-provider.ts';
import type { ClusterSettings } from './cluster-settings.ts';

export const TagKey = {
  /** Nodesmith's own: the cluster whose Nodesmith launched (or adopted) the resource. */
  ownership: 'nodesmith.io/cluster',
  /** The NodePool of an instance Nodesmith launched (Karpenter's key would invite its GC). */
  nodePool: 'nodesmith.io/nodepool',
  /** The NodePool of a Karpenter instance, which Nodesmith never writes on its own. */
  karpenterNodePool: 'karpenter.sh/nodepool',
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
    [TagKey.ownership]: clusterName,
    [TagKey.nodePool]: claim.nodePool,
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
  return {
    ...nodeClass.spec.tags,
    ...ownershipTags(clusterName, nodeClass),
    [TagKey.ownership]: clusterName,
  };
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
