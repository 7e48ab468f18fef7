/**
 * Static drift (core: disruption/staticdrift.go): a static NodePool's drifted nodes are each
 * replaced by a claim of the pool's template — their pods find room as any pending pod does —
 * as many at once as the pool's `Drifted` budget and `limits.nodes` allow, and only once the pool
 * is down to its replicas, so a scale-down in progress is never raced. Nodes of static pools
 * that nothing replaces say why they stay: emptiness and consolidation never apply to them.
 * Replacements are counted in the same ledgers, so those of one pass never over-fill a
 * capacity reservation nor take a placement group where EC2 would refuse them.
 */
import { isStatic, type NodePool } from '../../node-pool.ts';
import { memberLabels, PlacementLedger } from '../../scheduling/placement-ledger.ts';
import type { PlannedNodeClaim } from '../../scheduling/provisioning-plan.ts';
import { isUnfit } from '../../scheduling/unfit.ts';
import { NO_NODES, reservable, snapshotCounts } from '../../static-pools/pool-node-count.ts';
import {
  type StaticLedgers,
  staticLedgers,
  staticNodeClaim,
} from '../../static-pools/static-node-claim.ts';
import type { StayCode } from '../disruption-plan-types.ts';
import type { DisruptionState } from '../disruption-state.ts';
import {
  type Drifted,
  describeDrift,
  driftBlocker,
  driftDecision,
  driftedCandidates,
} from './drift.ts';

function byPool(drifted: readonly Drifted[]): Map<string, Drifted[]> {
  const out = new Map<string, Drifted[]>();
  for (const d of drifted) {
    const name = d.candidate.pool.metadata.name;
    out.set(name, [...(out.get(name) ?? []), d]);
  }
  return out;
}

/** Why this drifted node cannot be replaced now, or its replacement. */
function replacementOf(
  state: DisruptionState,
  { pool, ledgers }: PoolReplacements,
  drifted: Drifted,
  granted: number,
): PlannedNodeClaim | { readonly code: StayCode; readonly reason: string } {
  const blocker = driftBlocker(state, drifted.candidate);
  if (blocker !== undefined) return blocker;
  const name = pool.metadata.name;
  if (granted <= 0)
    return {
      code: 'NodeLimit',
      reason: `limits.nodes of NodePool ${name} leaves no room for a replacement`,
    };
  const { input } = state;
  const claimInput = {
    nodePool: pool,
    instanceTypes: input.instanceTypes.get(name) ?? [],
    daemonSets: input.daemonSets,
    region: input.region,
  };
  const replacement = staticNodeClaim(claimInput, 0, ledgers);
  if (replacement !== undefined && !isUnfit(replacement)) return replacement;
  return {
    code: 'NoReplacement',
    reason: replacement?.reason ?? 'no offering is available for a replacement',
  };
}

/** A pool's replacements, and the ledgers every replacement of the method counts in. */
interface PoolReplacements {
  readonly pool: NodePool;
  readonly ledgers: StaticLedgers;
}

function replacePool(
  state: DisruptionState,
  replacements: PoolReplacements,
  drifted: readonly Drifted[],
): void {
  const { pool } = replacements;
  const { input } = state;
  const name = pool.metadata.name;
  const count = snapshotCounts(input.nodeClaims, input.nodes).get(name) ?? NO_NODES;
  const replicas = pool.spec.replicas ?? 0;
  if (count.active + count.pendingDisruption > replicas) {
    for (const { candidate, drift } of drifted)
      state.stay(
        candidate.node.name,
        'Later',
        `${describeDrift(drift)}; NodePool ${name} scales down to its ${replicas} replicas first`,
      );
    return;
  }
  const allowed = state.allowance(pool, 'Drifted').allowed;
  let granted = reservable(pool, count, Math.min(allowed, drifted.length));
  for (const d of drifted) {
    const outcome = replacementOf(state, replacements, d, granted);
    if ('code' in outcome)
      state.stay(
        d.candidate.node.name,
        outcome.code,
        `${describeDrift(d.drift)}, but ${outcome.reason}`,
      );
    else {
      state.decide(driftDecision(state, d, [outcome]), [name]);
      granted -= 1;
    }
  }
}

/** Replaces static pools' drifted nodes; true when it decided any. */
export function replaceStaticDrifted(state: DisruptionState): boolean {
  const before = state.decisions.length;
  const pools = byPool(driftedCandidates(state, true));
  if (pools.size === 0) return false;
  // The candidates stay members of their groups until their replacements are Initialized.
  const ledgers = staticLedgers(new PlacementLedger(memberLabels(state.input)));
  for (const drifted of pools.values()) {
    const pool = (drifted[0] as Drifted).candidate.pool;
    replacePool(state, { pool, ledgers }, drifted);
  }
  return state.decisions.length > before;
}

/** Every static pool's node no method took stays, and says why. */
export function keepStaticNodes(state: DisruptionState): void {
  for (const candidate of state.open()) {
    if (!isStatic(candidate.pool)) continue;
    state.stay(
      candidate.node.name,
      'StaticNodePool',
      `NodePool ${candidate.pool.metadata.name} is static (replicas: ${candidate.pool.spec.replicas}): only its replica count, drift and expiration remove its nodes`,
    );
  }
}
