/**
 * Emptiness (core: disruption/emptiness.go): nodes running nothing that would need a new home
 * (only DaemonSet, mirror and finished pods) go together once `consolidateAfter` has passed,
 * as many as each pool's `Empty` budget allows. It runs whatever the consolidation policy, and
 * never on a static pool's nodes.
 */
import { isStatic } from '../../node-pool.ts';
import type { Candidate } from '../candidate.ts';
import type { DisruptionState } from '../disruption-state.ts';
import { dollars } from './consolidation-command.ts';
import {
  budgetLine,
  budgetReason,
  consolidateAfterBlocker,
  gracefulBlocker,
} from './eligibility.ts';

function emptyCandidates(state: DisruptionState): Candidate[] {
  const out: Candidate[] = [];
  for (const candidate of state.open()) {
    // A static pool keeps its count: emptiness never shrinks it (core: emptiness.go).
    if (candidate.pods.length > 0 || isStatic(candidate.pool)) continue;
    const blocker = gracefulBlocker(state, candidate) ?? consolidateAfterBlocker(state, candidate);
    if (blocker === undefined) out.push(candidate);
    else
      state.stay(
        candidate.node.name,
        blocker.code,
        `empty, but ${blocker.reason}`,
        blocker.unconsolidatable,
      );
  }
  return out;
}

/** Within each pool's budget, the rest left with the budget as their reason. */
function withinBudgets(state: DisruptionState, empty: readonly Candidate[]): Candidate[] {
  const left = new Map<string, number>();
  const taken: Candidate[] = [];
  for (const candidate of empty) {
    const pool = candidate.pool.metadata.name;
    const remaining = left.get(pool) ?? state.allowance(candidate.pool, 'Empty').allowed;
    if (remaining <= 0) {
      state.stay(
        candidate.node.name,
        'Budget',
        `empty, but ${budgetReason(state, candidate, 'Empty')}`,
      );
      continue;
    }
    left.set(pool, remaining - 1);
    taken.push(candidate);
  }
  return taken;
}

export function removeEmpty(state: DisruptionState): void {
  const taken = withinBudgets(state, emptyCandidates(state));
  if (taken.length === 0) return;
  const savings = taken.reduce((sum, c) => sum + (c.pricePerHour ?? 0), 0);
  const budgets = budgetLine(state, taken, 'Empty');
  state.decide(
    {
      method: 'emptiness',
      reason: 'Empty',
      nodes: taken.map((c) => c.node.name),
      replacements: [],
      savingsPerHour: savings,
      message: `${taken.length} empty node${taken.length === 1 ? '' : 's'} removed, saving ${dollars(savings)}/h`,
      budgets,
    },
    taken.map((c) => c.pool.metadata.name),
  );
}
