/**
 * Drift (core: disruption/drift.go): one drifted node per pass, empty ones first, then the
 * oldest, replaced by whatever its pods need — replacements are launched and Initialized before
 * it drains. A pool with a terminationGracePeriod drifts nodes even when their pods ask not to
 * be disrupted, since the grace period bounds the drain (core: disruption/helpers.go,
 * `GetCandidates`; docs/disruption.md). Static pools' nodes drift apart (static-drift.ts).
 */

import { isStatic } from '../../node-pool.ts';
import type { PlannedNodeClaim } from '../../scheduling/provisioning-plan.ts';
import type { Candidate } from '../candidate.ts';
import type { DisruptionDecision } from '../disruption-plan-types.ts';
import type { DisruptionState } from '../disruption-state.ts';
import { type Drift, driftOf } from '../drift-detection.ts';
import type { RemovalSimulator } from '../removal-simulation.ts';
import { dollars } from './consolidation-command.ts';
import { type Blocker, budgetLine, budgetReason, gracefulBlocker } from './eligibility.ts';

export interface Drifted {
  readonly candidate: Candidate;
  readonly drift: Drift;
}

/** Drifted candidates of dynamic pools, or (with `ofStatic`) of static ones, in the order they go. */
export function driftedCandidates(state: DisruptionState, ofStatic = false): Drifted[] {
  const out: Drifted[] = [];
  for (const candidate of state.open()) {
    if (isStatic(candidate.pool) !== ofStatic) continue;
    const instanceTypes = state.input.instanceTypes.get(candidate.pool.metadata.name);
    const drift = driftOf({
      pool: candidate.pool,
      ...(candidate.nodeClass === undefined ? {} : { nodeClass: candidate.nodeClass }),
      labels: candidate.node.labels,
      ...(candidate.claim === undefined ? {} : { claim: candidate.claim }),
      ...(instanceTypes === undefined ? {} : { instanceTypes }),
      ageMs: state.nowMs - candidate.createdMs,
      ...(candidate.network === undefined ? {} : { network: candidate.network }),
    });
    if (drift !== undefined) out.push({ candidate, drift });
  }
  // Empty first, then the oldest (core: drift.go sorts by drift time; the node's age stands in).
  return out.sort(
    (a, b) =>
      Number(a.candidate.pods.length > 0) - Number(b.candidate.pods.length > 0) ||
      a.candidate.createdMs - b.candidate.createdMs ||
      (a.candidate.node.name < b.candidate.node.name ? -1 : 1),
  );
}

/** Why this drifted node cannot go now, or undefined. */
export function driftBlocker(state: DisruptionState, candidate: Candidate): Blocker | undefined {
  const graceBounded = candidate.pool.spec.template.spec.terminationGracePeriod !== undefined;
  const blocker = gracefulBlocker(state, candidate, !graceBounded);
  if (blocker !== undefined) return blocker;
  if (state.allowance(candidate.pool, 'Drifted').allowed > 0) return undefined;
  return { code: 'Budget', reason: budgetReason(state, candidate, 'Drifted') };
}

export function driftDecision(
  state: DisruptionState,
  { candidate, drift }: Drifted,
  newClaims: readonly PlannedNodeClaim[],
): DisruptionDecision {
  const replacementCost = newClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
  const replaced =
    newClaims.length === 0
      ? 'its pods fit on other nodes'
      : `replaced by ${newClaims.map((c) => c.instanceType.name).join(', ')} (${dollars(replacementCost)}/h)`;
  return {
    method: 'drift',
    reason: 'Drifted',
    nodes: [candidate.node.name],
    replacements: newClaims,
    savingsPerHour: (candidate.pricePerHour ?? 0) - replacementCost,
    message: `${describeDrift(drift)}; ${replaced}`,
    budgets: budgetLine(state, [candidate], 'Drifted'),
  };
}

export function describeDrift(drift: Drift): string {
  return `drifted (${drift.reason}: ${drift.message})`;
}

/** Takes the first drifted node that can go now; true when it decided one. */
export function replaceDrifted(state: DisruptionState, simulator: RemovalSimulator): boolean {
  let decided = false;
  for (const drifted of driftedCandidates(state)) {
    const name = drifted.candidate.node.name;
    const what = describeDrift(drifted.drift);
    if (decided) {
      state.stay(
        name,
        'Later',
        `${what}; drifted nodes are replaced one at a time and another goes first`,
      );
      continue;
    }
    const blocker = driftBlocker(state, drifted.candidate);
    const outcome =
      blocker === undefined
        ? simulator.simulate([drifted.candidate], state.decidedNodes())
        : undefined;
    if (blocker !== undefined) state.stay(name, blocker.code, `${what}, but ${blocker.reason}`);
    else if (outcome?.ok === false)
      state.stay(name, 'NoPlaceForPods', `${what}, but ${outcome.reason}`);
    else if (outcome?.ok === true) {
      state.decide(driftDecision(state, drifted, outcome.newClaims), [
        drifted.candidate.pool.metadata.name,
      ]);
      decided = true;
    }
  }
  return decided;
}
