/**
 * What the nodes and NodeClaims of a snapshot count against limits when no state store priced
 * them (`nodesmith plan` over a dump): every claim of a NodePool, those being deleted too, and
 * every node of a pool that has no claim, at the catalog's price for the offering its labels
 * name (the type, zone and capacity type).
 */
import type { InstanceType } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import { parseResources, type Resources } from '../resources.ts';
import { chargeOf, type PoolCharge } from './limit-charge.ts';

export interface ChargeSources {
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
  /** The instance types each NodePool may use, by pool name: the price list. */
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
}

type Catalog = ReadonlyMap<string, InstanceType>;

function catalogOf(instanceTypes: ChargeSources['instanceTypes']): Catalog {
  const out = new Map<string, InstanceType>();
  for (const types of instanceTypes.values()) for (const t of types) out.set(t.name, t);
  return out;
}

/** The offering the labels name, else the cheapest of that capacity type; 0 for an unknown type. */
function priceOf(labels: Labels, catalog: Catalog): number {
  const type = catalog.get(labels[Label.instanceType] ?? '');
  const capacityType = labels[Label.capacityType] ?? 'on-demand';
  const sameType = (type?.offerings ?? []).filter((o) => o.capacityType === capacityType);
  const exact = sameType.find((o) => o.zone === labels[Label.zone]);
  if (exact !== undefined) return exact.pricePerHour;
  return sameType.length === 0 ? 0 : Math.min(...sameType.map((o) => o.pricePerHour));
}

function charge(nodePool: string, capacity: Resources, labels: Labels, catalog: Catalog) {
  return { nodePool, charge: chargeOf(capacity, priceOf(labels, catalog)) };
}

/** A claim's charge: its capacity as its status has it, else as the catalog has its type. */
function claimCharge(claim: NodeClaim, nodePool: string, catalog: Catalog): PoolCharge {
  const labels = claim.metadata.labels ?? {};
  const capacity =
    claim.status?.capacity === undefined
      ? (catalog.get(labels[Label.instanceType] ?? '')?.capacity ?? {})
      : parseResources(claim.status.capacity);
  return charge(nodePool, capacity, labels, catalog);
}

/** The names and provider ids of the nodes the claims became. */
function joinedNodes(claims: readonly NodeClaim[]): Set<string> {
  const out = new Set<string>();
  for (const claim of claims) {
    if (claim.status?.nodeName) out.add(claim.status.nodeName);
    if (claim.status?.providerID) out.add(claim.status.providerID);
  }
  return out;
}

export function planningCharges(sources: ChargeSources): PoolCharge[] {
  const catalog = catalogOf(sources.instanceTypes);
  const claims = sources.nodeClaims.filter(
    (c) => c.metadata.labels?.[Label.nodePool] !== undefined,
  );
  const joined = joinedNodes(claims);
  const out = claims.map((c) => claimCharge(c, c.metadata.labels?.[Label.nodePool] ?? '', catalog));
  for (const node of sources.nodes) {
    const pool = node.labels[Label.nodePool];
    if (pool === undefined || joined.has(node.name)) continue;
    if (node.providerID !== undefined && joined.has(node.providerID)) continue;
    out.push(charge(pool, node.capacity, node.labels, catalog));
  }
  return out;
}
