/**
 * Which of Karpenter's NodeClaims Nodesmith may adopt, and why not the others. Only a node that
 * is plainly Karpenter's and settled is taken: launched, registered and initialized, its Node
 * there and Ready, not being deleted, of a NodePool Nodesmith now holds, and not already a claim
 * of Nodesmith's. Anything else is left to Karpenter (or to whoever removes it), untouched.
 */
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import { hasCondition, type NodeClaim } from '../node-claim.ts';
import type { NodePool } from '../node-pool.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { compareText } from '../state/order.ts';

/**
 * Karpenter's termination finalizer, on its NodeClaims and the Nodes it registered (core:
 * pkg/apis/v1/labels.go `TerminationFinalizer`).
 */
export const KARPENTER_TERMINATION_FINALIZER = 'karpenter.sh/termination';

export interface AdoptionCandidate {
  readonly nodeClaim: NodeClaim;
  readonly node: Node;
  /** From the providerID (`aws:///<zone>/<instance id>`). */
  readonly instanceId: string;
}

export interface AdoptionSkip {
  readonly nodeClaim: string;
  readonly nodeName?: string;
  readonly reason: string;
}

export interface AdoptionInput {
  readonly nodeClaims: readonly NodeClaim[];
  readonly records: readonly NodeClaimRecord[];
  readonly nodes: readonly Node[];
  readonly nodePools: readonly NodePool[];
}

export interface AdoptionChoice {
  /** In NodeClaim name order. */
  readonly candidates: readonly AdoptionCandidate[];
  /** Claims left alone for a reason worth telling (not those already adopted). */
  readonly skipped: readonly AdoptionSkip[];
}

const INSTANCE_ID = /^aws:\/\/\/[^/]*\/(i-[0-9a-f]+)$/;

/** The EC2 instance id of an `aws:///<zone>/<id>` providerID, if it is one. */
export function instanceIdOf(providerID: string | undefined): string | undefined {
  return providerID === undefined ? undefined : INSTANCE_ID.exec(providerID)?.[1];
}

type Verdict = AdoptionCandidate | { readonly reason: string; readonly nodeName?: string };

function verdict(claim: NodeClaim, node: Node | undefined, pools: ReadonlySet<string>): Verdict {
  const instanceId = instanceIdOf(claim.status?.providerID);
  if (claim.metadata.deletionTimestamp !== undefined) return { reason: 'it is being deleted' };
  if (instanceId === undefined) return { reason: 'it has no EC2 instance yet' };
  if (node === undefined) return { reason: 'its node has not joined' };
  const nodeName = node.name;
  if (!hasCondition(claim, 'Initialized')) return { nodeName, reason: 'it is not initialized' };
  if (node.deleting || !node.ready) return { nodeName, reason: 'its node is not Ready' };
  const pool = claim.metadata.labels?.[Label.nodePool];
  if (pool === undefined || !pools.has(pool)) {
    return { nodeName, reason: `NodePool ${pool ?? '(none)'} is not one of Nodesmith's` };
  }
  return { nodeClaim: claim, node, instanceId };
}

/** The NodeClaims to adopt now, and those left alone with the reason. */
export function adoptionCandidates(input: AdoptionInput): AdoptionChoice {
  const recorded = new Set(input.records.flatMap((r) => [r.name, r.providerID ?? '']));
  const nodeOf = new Map(
    input.nodes.flatMap((n) => (n.providerID === undefined ? [] : [[n.providerID, n] as const])),
  );
  const pools = new Set(input.nodePools.map((p) => p.metadata.name));
  const candidates: AdoptionCandidate[] = [];
  const skipped: AdoptionSkip[] = [];
  const sorted = [...input.nodeClaims].sort((a, b) =>
    compareText(a.metadata.name, b.metadata.name),
  );
  for (const claim of sorted) {
    const providerID = claim.status?.providerID;
    if (recorded.has(claim.metadata.name) || (providerID && recorded.has(providerID))) continue;
    const found = verdict(claim, providerID ? nodeOf.get(providerID) : undefined, pools);
    if ('instanceId' in found) candidates.push(found);
    else skipped.push({ nodeClaim: claim.metadata.name, ...found });
  }
  return { candidates, skipped };
}
