/**
 * Adopting Karpenter's nodes (the `adoptKarpenterNodes` setting): after the snapshot, each
 * settled NodeClaim of a NodePool Nodesmith now holds becomes a Nodesmith claim, from the
 * NodeClaim and its instance as EC2 describes it, and its instance gets Nodesmith's ownership
 * tag. From then on the node is one of Nodesmith's: registration's finalizer is added by the
 * lifecycle step, and disruption drains it within its PDBs and budgets like any other.
 *
 * The claim is written before the tag: a pass that stops in between leaves a claim whose
 * untagged instance the next pass finds and tags (untagged-claim-instances.ts), never an owned
 * instance without a claim, which orphan cleanup would terminate without a drain. An instance
 * must carry the NodeClaim's own `karpenter.sh/nodeclaim` tag and be running to be adopted.
 */
import { adoptedClaimRecord } from '../../domain/adoption/adopted-claim-record.ts';
import {
  type AdoptionCandidate,
  type AdoptionSkip,
  adoptionCandidates,
} from '../../domain/adoption/karpenter-node-claim.ts';
import type { InstanceType } from '../../domain/instance-type.ts';
import { Label } from '../../domain/labels.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { ManagedInstance } from '../../ports/cloud-provider.ts';
import type { ClusterEvent } from '../../ports/cluster.ts';
import type { Decision } from '../../ports/decisions.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import { decisionOf } from './decisions.ts';
import type { PassDependencies } from './pass-dependencies.ts';
import type { LifecycleRecord } from './pass-report.ts';
import type { PassSnapshot } from './pass-snapshot.ts';
import { type UntaggedClaimInstances, untaggedClaimInstances } from './untagged-claim-instances.ts';

export interface AdoptionContext {
  readonly snapshot: PassSnapshot;
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly write: FencedWrite;
}

export interface AdoptionOutcome {
  /** The snapshot with the adopted claims and their instances, as if they had been read. */
  readonly snapshot: PassSnapshot;
  readonly records: readonly LifecycleRecord[];
  readonly decisions: readonly Decision[];
  readonly events: readonly ClusterEvent[];
}

/** Skips are told on the node at most hourly: most of them last (a pool not moved over). */
const SKIP_EVENT_DEDUPE_SECONDS = 3600;

type Adoption = { readonly claim: NodeClaimRecord } | { readonly skip: AdoptionSkip };

/** The candidate's instance when it may be adopted, else why not. */
function adoptableInstance(
  candidate: AdoptionCandidate,
  instance: ManagedInstance | undefined,
): ManagedInstance | string {
  const name = candidate.nodeClaim.metadata.name;
  if (instance === undefined) return `its instance ${candidate.instanceId} is not the cluster's`;
  if (instance.state !== 'running') return `its instance is ${instance.state}`;
  if (instance.nodeClaim !== name)
    return `its instance is not tagged karpenter.sh/nodeclaim=${name}`;
  return instance;
}

async function adoptOne(
  deps: Pick<PassDependencies, 'state' | 'clock'>,
  context: AdoptionContext,
  candidate: AdoptionCandidate,
  described: ManagedInstance | undefined,
): Promise<Adoption> {
  const skip = (reason: string): Adoption => ({
    skip: { nodeClaim: candidate.nodeClaim.metadata.name, nodeName: candidate.node.name, reason },
  });
  const instance = adoptableInstance(candidate, described);
  if (typeof instance === 'string') return skip(instance);
  const pool = candidate.nodeClaim.metadata.labels?.[Label.nodePool] ?? '';
  const types = context.instanceTypes.get(pool) ?? [];
  const record = adoptedClaimRecord(candidate, instance, types, deps.clock.now());
  try {
    return { claim: await deps.state.nodeClaims.create(record, context.write) };
  } catch (err) {
    return skip(`its claim could not be written: ${err instanceof Error ? err.message : err}`);
  }
}

function mergedUntagged(a: UntaggedClaimInstances, b: UntaggedClaimInstances) {
  const problem = a.problem ?? b.problem;
  return {
    instances: [...a.instances, ...b.instances],
    tagged: [...a.tagged, ...b.tagged],
    ...(problem === undefined ? {} : { problem }),
  };
}

function skipEvent(skip: AdoptionSkip): ClusterEvent[] {
  if (skip.nodeName === undefined) return [];
  return [
    {
      involvedObject: { kind: 'Node', name: skip.nodeName },
      type: 'Normal',
      reason: 'AdoptionSkipped',
      message: `Karpenter's NodeClaim ${skip.nodeClaim} is left alone: ${skip.reason}`,
      dedupeSeconds: SKIP_EVENT_DEDUPE_SECONDS,
    },
  ];
}

function adoptedReason(claim: NodeClaimRecord): string {
  return `adopted from Karpenter's NodeClaim ${claim.name}`;
}

/** What `kubectl describe node` shows of the adoption. */
function adoptedEvent(claim: NodeClaimRecord): ClusterEvent {
  return {
    involvedObject: { kind: 'Node', name: claim.nodeName ?? '' },
    type: 'Normal',
    reason: 'Adopted',
    message: `${adoptedReason(claim)}: Nodesmith disrupts it from now on`,
  };
}

function adoptedRecord(claim: NodeClaimRecord, now: Date): LifecycleRecord {
  return {
    at: now.toISOString(),
    kind: 'AdoptedFromKarpenter',
    claim: claim.name,
    ...(claim.nodeName === undefined ? {} : { nodeName: claim.nodeName }),
    ...(claim.instanceId === undefined ? {} : { instanceId: claim.instanceId }),
    reason: adoptedReason(claim),
  };
}

/** Adopts the candidates one at a time: one that cannot be adopted never stops the others. */
async function adoptAll(
  deps: Pick<PassDependencies, 'state' | 'cloud' | 'clock'>,
  context: AdoptionContext,
  candidates: readonly AdoptionCandidate[],
): Promise<Adoption[]> {
  const ids = candidates.map((c) => c.instanceId).sort();
  const described = ids.length === 0 ? [] : await deps.cloud.describe(ids);
  const byId = new Map(described.map((i) => [i.instanceId, i] as const));
  const adoptions: Adoption[] = [];
  for (const candidate of candidates) {
    adoptions.push(await adoptOne(deps, context, candidate, byId.get(candidate.instanceId)));
  }
  return adoptions;
}

/**
 * Adoption must not stall the pass: when it cannot go on (Karpenter's NodeClaims may not be
 * listed because deploy/rbac-adoption.yaml was not applied, EC2 throttles), the pass carries on
 * with what it read and reports why; claims written before the failure are read by the next.
 */
export async function adoptKarpenterNodes(
  deps: Pick<PassDependencies, 'state' | 'cluster' | 'cloud' | 'clock'>,
  context: AdoptionContext,
): Promise<AdoptionOutcome> {
  try {
    return await adopt(deps, context);
  } catch (err) {
    const reason = `adopting Karpenter's nodes: ${err instanceof Error ? err.message : err}`;
    const at = deps.clock.now().toISOString();
    const failed = { at, kind: 'AdoptionFailed', reason };
    return { snapshot: context.snapshot, records: [failed], decisions: [], events: [] };
  }
}

async function adopt(
  deps: Pick<PassDependencies, 'state' | 'cluster' | 'cloud' | 'clock'>,
  context: AdoptionContext,
): Promise<AdoptionOutcome> {
  const { snapshot } = context;
  const choice = adoptionCandidates({
    nodeClaims: await deps.cluster.karpenterNodeClaims(),
    records: snapshot.claims,
    nodes: snapshot.nodes,
    nodePools: snapshot.nodePools,
  });
  const adoptions = await adoptAll(deps, context, choice.candidates);
  const claims = adoptions.flatMap((a) => ('claim' in a ? [a.claim] : []));
  const untagged = await untaggedClaimInstances(deps.cloud, claims, []);
  const now = deps.clock.now();
  const skipped = [...choice.skipped, ...adoptions.flatMap((a) => ('skip' in a ? [a.skip] : []))];
  return {
    snapshot: {
      ...snapshot,
      claims: [...snapshot.claims, ...claims],
      instances: [...snapshot.instances, ...untagged.instances],
      untagged: mergedUntagged(snapshot.untagged, untagged),
    },
    records: claims.map((claim) => adoptedRecord(claim, now)),
    decisions: claims.map((claim) => decisionOf('Adopted', claim, now, adoptedReason(claim))),
    events: [...claims.map(adoptedEvent), ...skipped.flatMap(skipEvent)],
  };
}
