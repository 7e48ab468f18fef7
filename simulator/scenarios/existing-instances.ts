/**
 * The EC2 instances behind a dump's nodes: a node with an `aws:///zone/i-…` providerID and an
 * instance-type label runs on an instance the simulated cloud must hold too, so the run counts
 * and prices it as the cluster's own. They are instances Nodesmith did not launch: a node with
 * `karpenter.sh/nodepool` is Karpenter's, any other a node group's. Karpenter tags its instance
 * `karpenter.sh/nodeclaim` with the node's NodeClaim, which adoption checks before taking it.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { ForeignInstance } from '../cloud/simulated-cloud.ts';

const PROVIDER_ID = /^aws:\/\/\/([^/]+)\/(i-[0-9a-f]+)$/;

function labelsOf(node: JsonObject): Readonly<Record<string, string>> {
  return ((node.metadata as JsonObject | undefined)?.labels ?? {}) as Record<string, string>;
}

/** Karpenter's label, else EKS managed node groups' (`SPOT`, `ON_DEMAND`). */
function capacityTypeOf(labels: Readonly<Record<string, string>>): 'spot' | 'on-demand' {
  const karpenter = labels['karpenter.sh/capacity-type'];
  if (karpenter !== undefined) return karpenter === 'spot' ? 'spot' : 'on-demand';
  return labels['eks.amazonaws.com/capacityType'] === 'SPOT' ? 'spot' : 'on-demand';
}

/** NodeClaim names by the providerID of their instance. */
export type NodeClaimsByProviderID = ReadonlyMap<string, string>;

function instanceOf(node: JsonObject, claims: NodeClaimsByProviderID): ForeignInstance | undefined {
  const providerID = (node.spec as JsonObject | undefined)?.providerID;
  const match = typeof providerID === 'string' ? PROVIDER_ID.exec(providerID) : null;
  const labels = labelsOf(node);
  const instanceType = labels['node.kubernetes.io/instance-type'];
  if (match?.[1] === undefined || match[2] === undefined || instanceType === undefined) {
    return undefined;
  }
  const pool = labels['karpenter.sh/nodepool'];
  const nodeClass = labels['karpenter.k8s.aws/ec2nodeclass'];
  const nodeClaim = pool === undefined ? undefined : claims.get(String(providerID));
  return {
    instanceId: match[2],
    instanceType,
    zone: match[1],
    capacityType: capacityTypeOf(labels),
    origin: pool === undefined ? 'node-group' : 'karpenter',
    ...(pool === undefined ? {} : { nodePool: pool }),
    ...(nodeClaim === undefined ? {} : { nodeClaim }),
    ...(nodeClass === undefined ? {} : { nodeClass }),
  };
}

/** One instance per node with a provider ID, each instance once, tagged with its NodeClaim. */
export function instancesOfNodes(
  nodes: readonly JsonObject[],
  claims: NodeClaimsByProviderID = new Map(),
): ForeignInstance[] {
  const byId = new Map<string, ForeignInstance>();
  for (const instance of nodes.flatMap((n) => instanceOf(n, claims) ?? [])) {
    byId.set(instance.instanceId, instance);
  }
  return [...byId.values()];
}
