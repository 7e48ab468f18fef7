/**
 * Expiration (core: nodeclaim/expiration/controller.go): a node older than its `expireAfter` is
 * deleted, whatever its pods or budgets say; its drain still respects PodDisruptionBudgets and
 * `do-not-disrupt` until the pool's terminationGracePeriod ends. No replacement is launched
 * ahead: provisioning treats the node's pods as pending while it drains. Expiring a node is not a
 * saving: its pods need capacity elsewhere, new (whose cost the removal simulation finds) or the
 * spare room of other nodes that consolidation would otherwise reclaim, so the decision names
 * what they need and saves nothing.
 */
import { formatDuration } from '../../duration.ts';
import type { Candidate } from '../candidate.ts';
import type { DisruptionState } from '../disruption-state.ts';
import type { RemovalSimulator } from '../removal-simulation.ts';
import { dollars } from './consolidation-command.ts';

/** What the node's pods need once it is gone, as the removal simulation finds it. */
function podsNeed(
  state: DisruptionState,
  simulator: RemovalSimulator,
  candidate: Candidate,
): string {
  const outcome = simulator.simulate([candidate], state.decidedNodes());
  if (!outcome.ok) return outcome.reason;
  if (outcome.newClaims.length === 0) return 'its pods fit on other nodes';
  const needed = outcome.newClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
  const types = outcome.newClaims.map((c) => c.instanceType.name).join(', ');
  return `its pods need ${types} (${dollars(needed)}/h) elsewhere`;
}

export function expire(state: DisruptionState, simulator: RemovalSimulator): void {
  for (const candidate of state.open()) {
    const after = state.expireAfterMs(candidate.pool, candidate.claim);
    if (after === undefined || Number.isNaN(candidate.createdMs)) continue;
    const age = state.nowMs - candidate.createdMs;
    if (age < after) continue;
    state.decide(
      {
        method: 'expiration',
        reason: 'Expired',
        nodes: [candidate.node.name],
        replacements: [],
        savingsPerHour: 0,
        message: `expired: ${formatDuration(age)} old, past the expireAfter of ${formatDuration(after)}; ${podsNeed(state, simulator, candidate)}`,
        budgets: [],
      },
      [candidate.pool.metadata.name],
    );
  }
}
