/**
 * Karpenter's NodeClaims behind a dump's nodes. A node of one of the files' NodePools was
 * launched by Karpenter, which keeps a `karpenter.sh/v1` NodeClaim for it; adoption
 * (`adoptKarpenterNodes`) reads those NodeClaims, so the simulated API server must hold one per
 * such node for the run to take the node over as Karpenter's successor would. A dump taken
 * without `nodeclaims` lacks them: the NodeClaim is then written from the Node as Karpenter
 * would have written it. A node of no NodePool (a node group's) gets none and stays capacity only.
 */

import { instanceIdOf } from '../../functions/domain/adoption/karpenter-node-claim.ts';
import { SUFFIX_ALPHABET } from '../../functions/manifests/workloads/name-suffix.ts';
import type { JsonObject } from '../api-server/json.ts';

const POOL = 'karpenter.sh/nodepool';
const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
const NODE_CLASS = 'karpenter.k8s.aws/ec2nodeclass';

function metadataOf(object: JsonObject): JsonObject {
  return (object.metadata as JsonObject | undefined) ?? {};
}

function labelsOf(object: JsonObject): Readonly<Record<string, string>> {
  return (metadataOf(object).labels ?? {}) as Record<string, string>;
}

function providerIDOf(node: JsonObject): string | undefined {
  const providerID = (node.spec as JsonObject | undefined)?.providerID;
  return typeof providerID === 'string' && instanceIdOf(providerID) !== undefined
    ? providerID
    : undefined;
}

/** Five characters of Karpenter's alphabet from FNV-1a of the node name: the same every run. */
function suffixOf(nodeName: string): string {
  let hash = 0x811c9dc5;
  for (const char of nodeName) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  let out = '';
  for (let i = 0; i < 5; i++) {
    hash = Math.imul(hash ^ i, 0x01000193) >>> 0;
    out += SUFFIX_ALPHABET[hash % SUFFIX_ALPHABET.length];
  }
  return out;
}

/** The Node's owner NodeClaim (Karpenter sets it on registration), else `<pool>-<suffix>`. */
function nameOf(node: JsonObject, pool: string): string {
  const owners = (metadataOf(node).ownerReferences ?? []) as JsonObject[];
  const owner = owners.find((o) => o.kind === 'NodeClaim' && typeof o.name === 'string');
  return owner === undefined
    ? `${pool}-${suffixOf(String(metadataOf(node).name))}`
    : String(owner.name);
}

/** Launched and Registered, as the node is there; Initialized once Karpenter labelled it so. */
function conditionsOf(
  labels: Readonly<Record<string, string>>,
  since: JsonObject[string] | undefined,
): JsonObject[] {
  const initialized = labels['karpenter.sh/initialized'] === 'true';
  const conditions: readonly (readonly [string, string])[] = [
    ['Launched', 'True'],
    ['Registered', 'True'],
    ['Initialized', initialized ? 'True' : 'Unknown'],
  ];
  return conditions.map(([type, status]) => ({
    type,
    status,
    reason: status === 'True' ? type : 'AwaitingInitialization',
    message: '',
    ...(since === undefined ? {} : { lastTransitionTime: since }),
  }));
}

/** The NodeClaim Karpenter keeps for a node of `pool`, written from the Node. */
export function nodeClaimOfNode(node: JsonObject, pool: string): JsonObject {
  const labels = labelsOf(node);
  const since = metadataOf(node).creationTimestamp;
  const status = (node.status as JsonObject | undefined) ?? {};
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: nameOf(node, pool),
      ...(since === undefined ? {} : { creationTimestamp: since }),
      labels: { ...labels },
      finalizers: ['karpenter.sh/termination'],
    },
    spec: {
      nodeClassRef: {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: labels[NODE_CLASS] ?? 'default',
      },
      requirements: [
        { key: POOL, operator: 'In', values: [pool] },
        { key: INSTANCE_TYPE, operator: 'In', values: [labels[INSTANCE_TYPE] ?? ''] },
      ],
    },
    status: {
      providerID: providerIDOf(node) ?? '',
      nodeName: metadataOf(node).name ?? '',
      ...(status.capacity === undefined ? {} : { capacity: status.capacity }),
      ...(status.allocatable === undefined ? {} : { allocatable: status.allocatable }),
      conditions: conditionsOf(labels, since),
    },
  };
}

/** The files' NodeClaim of the node, by providerID or else by node name. */
function dumpedClaimOf(node: JsonObject, claims: readonly JsonObject[]): JsonObject | undefined {
  const statusOf = (c: JsonObject) => (c.status as JsonObject | undefined) ?? {};
  const providerID = providerIDOf(node);
  const name = metadataOf(node).name;
  return (
    claims.find((c) => providerID !== undefined && statusOf(c).providerID === providerID) ??
    claims.find((c) => name !== undefined && statusOf(c).nodeName === name)
  );
}

/**
 * One NodeClaim per node of one of `nodePools` running on an EC2 instance of a known type: the
 * files' own where they hold it, else one written from the Node.
 */
export function nodeClaimsOfNodes(
  nodes: readonly JsonObject[],
  dumped: readonly JsonObject[],
  nodePools: ReadonlySet<string>,
): JsonObject[] {
  return nodes.flatMap((node) => {
    const labels = labelsOf(node);
    const pool = labels[POOL];
    if (pool === undefined || !nodePools.has(pool)) return [];
    if (providerIDOf(node) === undefined || labels[INSTANCE_TYPE] === undefined) return [];
    return [dumpedClaimOf(node, dumped) ?? nodeClaimOfNode(node, pool)];
  });
}
