/**
 * What static NodePools need now (core: pkg/controllers/static/provisioning and
 * static/deprovisioning, controller.go): a pool with fewer than `replicas` active claims
 * launches the difference from its template, within `limits.nodes`; one with more gives up the
 * surplus, chosen as scale-down-candidates.ts says, through the usual drain. Claims pending
 * disruption count as present when scaling up (their replacements are on the way) and not when
 * scaling down, so neither races a drift. Every static pool's reserved claims are counted in one
 * reservation ledger, with the reservations the pass launched into since the instance types were
 * counted, and every claim of a cluster or spread placement group in one placement ledger with
 * the claims already stored. Pure: the pass carries the answer out.
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import type { EC2NodeClass } from '../node-class.ts';
import { isStatic, type NodePool } from '../node-pool.ts';
import type { Pod } from '../pod.ts';
import { PlacementLedger } from '../scheduling/placement-ledger.ts';
import { launchBlocker } from '../scheduling/plan-provisioning.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { isUnfit } from '../scheduling/unfit.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import {
  NO_NODES,
  nodeLimit,
  type PoolNodeCount,
  recordCounts,
  recordStanding,
  reservable,
} from './pool-node-count.ts';
import { scaleDownCandidates } from './scale-down-candidates.ts';
import { type StaticLedgers, staticLedgers, staticNodeClaim } from './static-node-claim.ts';

/** Karpenter's reason for a static pool's surplus claims (core: TerminationReason). */
export const OVERPROVISIONED = 'Overprovisioned';

export interface StaticPoolsInput {
  readonly nodePools: readonly NodePool[];
  readonly nodeClasses: readonly EC2NodeClass[];
  /** Every stored claim. */
  readonly claims: readonly NodeClaimRecord[];
  readonly pods: readonly Pod[];
  readonly daemonSets: readonly DaemonSet[];
  /** The instance types each pool may use, priced and marked available. */
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly region?: string | undefined;
  readonly nowMs: number;
  /**
   * The reservations launched into since `instanceTypes` counted them (by the pass's
   * provisioning, before this plan), one entry per instance: each leaves one instance fewer.
   */
  readonly reservationsTaken?: readonly string[];
}

export interface StaticRemoval {
  readonly claim: string;
  readonly nodePool: string;
  readonly message: string;
}

/** A pool short of its replicas that launches fewer than it lacks, and why. */
export interface StaticShortfall {
  readonly nodePool: string;
  readonly missing: number;
  readonly reason: string;
}

export interface StaticPoolsPlan {
  /** Claims to launch, each from its pool's template. */
  readonly launches: readonly PlannedNodeClaim[];
  readonly removals: readonly StaticRemoval[];
  readonly shortfalls: readonly StaticShortfall[];
}

/** The plan as it is built, pool by pool, every pool's claims in the same ledgers. */
interface PlanBuilder {
  readonly launches: PlannedNodeClaim[];
  readonly removals: StaticRemoval[];
  readonly shortfalls: StaticShortfall[];
  readonly ledgers: StaticLedgers;
}

interface PoolState {
  readonly pool: NodePool;
  readonly replicas: number;
  readonly count: PoolNodeCount;
}

function scaleUp(input: StaticPoolsInput, state: PoolState, plan: PlanBuilder): void {
  const { pool, replicas, count } = state;
  const name = pool.metadata.name;
  if (count.active + count.pendingDisruption >= replicas) return;
  // A stopped or unready pool launches nothing (core: the Ready root condition is required).
  const blocker = launchBlocker(pool, input.nodeClasses);
  const missing = replicas - count.active;
  if (blocker !== undefined) {
    plan.shortfalls.push({ nodePool: name, missing, reason: blocker.reason });
    return;
  }
  const granted = reservable(pool, count, missing);
  if (granted < missing)
    plan.shortfalls.push({
      nodePool: name,
      missing: missing - granted,
      reason: `limits.nodes (${nodeLimit(pool)}) reached`,
    });
  const claimInput = {
    nodePool: pool,
    instanceTypes: input.instanceTypes.get(name) ?? [],
    daemonSets: input.daemonSets,
    region: input.region,
  };
  for (let index = 0; index < granted; index++) {
    const claim = staticNodeClaim(claimInput, index, plan.ledgers);
    if (claim === undefined || isUnfit(claim)) {
      const reason =
        claim?.reason ?? 'no instance type the template allows has an available offering';
      plan.shortfalls.push({ nodePool: name, missing: granted - index, reason });
      return;
    }
    plan.launches.push(claim);
  }
}

function scaleDown(input: StaticPoolsInput, state: PoolState, plan: PlanBuilder): void {
  const { pool, replicas, count } = state;
  const surplus = count.active - replicas;
  if (surplus <= 0) return;
  const name = pool.metadata.name;
  const active = input.claims.filter((c) => c.nodePool === name && recordStanding(c) === 'active');
  const message = `NodePool ${name} has ${count.active} nodes and wants ${replicas}`;
  for (const claim of scaleDownCandidates({ ...input, nodePool: pool, claims: active }, surplus))
    plan.removals.push({ claim: claim.name, nodePool: name, message });
}

export function planStaticPools(input: StaticPoolsInput): StaticPoolsPlan {
  // The pools' claims stand for their instances in the placement groups, launched or not.
  const ledgers = staticLedgers(new PlacementLedger(input.claims.map((c) => c.labels ?? {})));
  for (const id of input.reservationsTaken ?? []) ledgers.reservations.take(id);
  const plan: PlanBuilder = { launches: [], removals: [], shortfalls: [], ledgers };
  const counts = recordCounts(input.claims);
  for (const pool of input.nodePools) {
    const replicas = pool.spec.replicas;
    // A pool being deleted takes its claims with it (owner-cascade.ts): neither scaling applies.
    if (!isStatic(pool) || replicas === undefined || pool.metadata.deletionTimestamp) continue;
    const state = { pool, replicas, count: counts.get(pool.metadata.name) ?? NO_NODES };
    scaleUp(input, state, plan);
    scaleDown(input, state, plan);
  }
  const { launches, removals, shortfalls } = plan;
  return { launches, removals, shortfalls };
}
