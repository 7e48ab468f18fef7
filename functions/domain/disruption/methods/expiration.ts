/**
 * Expiration (core: nodeclaim/expiration/controller.go): a node older than its `expireAfter` is
 * deleted, whatever its pods or budgets say; its drain still respects PodDisruptionBudgets and
 * `do-not-disrupt` until the pool's terminationGracePeriod ends. No replacement is launched
 * ahead: provisioning treats the node's pods as pending while it drains.
 */
import { formatDuration } from '../../duration.ts';
import type { DisruptionState } from '../disruption-state.ts';

export function expire(state: DisruptionState): void {
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
        savingsPerHour: candidate.pricePerHour ?? 0,
        message: `expired: ${formatDuration(age)} old, past the expireAfter of ${formatDuration(after)}`,
        budgets: [],
      },
      [candidate.pool.metadata.name],
    );
  }
}
