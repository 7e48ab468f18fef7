/**
 * Consolidation under `WhenEmptyOrUnderutilized` and `Balanced` (core:
 * disruption/multinodeconsolidation.go, singlenodeconsolidation.go): first the largest prefix of
 * the cheapest-to-disrupt candidates (at most 100, within budgets) that can go at once —
 * deleted, or replaced by one cheaper node — found by binary search; failing that, one node at a
 * time. A command touching `Balanced` pools must also pass their score (balanced.ts). A pass
 * takes one command.
 */

import { isStatic } from '../../node-pool.ts';
import { isApproved, refusedMessage } from '../balanced-score.ts';
import type { Candidate } from '../candidate.ts';
import { byDisruptionCost } from '../candidate.ts';
import type { DisruptionDecision, PoolScore } from '../disruption-plan-types.ts';
import type { DisruptionState } from '../disruption-state.ts';
import type { RemovalSimulator } from '../removal-simulation.ts';
import { consolidationDisabled, whenEmptyButNotEmpty } from '../unconsolidatable.ts';
import { deletionScore, evaluateBalanced } from './balanced.ts';
import {
  type ConsolidationCommand,
  consolidationCommand,
  dollars,
} from './consolidation-command.ts';
import {
  type Blocker,
  budgetLine,
  budgetReason,
  consolidateAfterBlocker,
  gracefulBlocker,
} from './eligibility.ts';

/** core: MultiNodeConsolidation's batch cap. */
export const MAX_MULTI_NODE_CANDIDATES = 100;

/** Karpenter checks for disabled consolidation before the policy (core: consolidation.go ShouldDisrupt). */
function whenEmptyMessage(state: DisruptionState, candidate: Candidate): string {
  const pool = candidate.pool.metadata.name;
  return state.consolidatableAtMs(candidate) === undefined
    ? consolidationDisabled(pool)
    : whenEmptyButNotEmpty(pool);
}

function eligible(state: DisruptionState): Candidate[] {
  const out: Candidate[] = [];
  for (const candidate of state.open()) {
    // A static pool's consolidationPolicy is ignored: it is never consolidated (core: consolidation.go).
    if (candidate.pods.length === 0 || isStatic(candidate.pool)) continue;
    const policy =
      candidate.pool.spec.disruption?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized';
    if (policy === 'WhenEmpty') {
      state.stay(
        candidate.node.name,
        'ConsolidationPolicy',
        `its NodePool's consolidationPolicy is WhenEmpty and it runs ${candidate.pods.length} pod${candidate.pods.length === 1 ? '' : 's'}`,
        whenEmptyMessage(state, candidate),
      );
      continue;
    }
    const blocker = gracefulBlocker(state, candidate) ?? consolidateAfterBlocker(state, candidate);
    if (blocker === undefined) out.push(candidate);
    else state.stay(candidate.node.name, blocker.code, blocker.reason, blocker.unconsolidatable);
  }
  return out.sort(byDisruptionCost);
}

/** Candidates in order while their pool's `Underutilized` budget lasts; the rest stay for it. */
function withinBudgets(state: DisruptionState, candidates: readonly Candidate[]): Candidate[] {
  const left = new Map<string, number>();
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const pool = candidate.pool.metadata.name;
    const remaining = left.get(pool) ?? state.allowance(candidate.pool, 'Underutilized').allowed;
    if (remaining <= 0) {
      state.stay(candidate.node.name, 'Budget', budgetReason(state, candidate, 'Underutilized'));
      continue;
    }
    left.set(pool, remaining - 1);
    out.push(candidate);
  }
  return out;
}

function evaluate(
  state: DisruptionState,
  simulator: RemovalSimulator,
  candidates: readonly Candidate[],
): ConsolidationCommand {
  const outcome = simulator.simulate(candidates, state.decidedNodes());
  return consolidationCommand(candidates, outcome, { singleNode: candidates.length === 1 });
}

function describe(command: ConsolidationCommand): string {
  if (command.kind === 'delete')
    return `its pods fit on other nodes; saves ${dollars(command.savingsPerHour)}/h`;
  if (command.kind === 'replace') {
    const r = command.replacement;
    return `replaced by ${r.instanceType.name} (${r.offering.capacityType}, ${r.offering.zone}) at ${dollars(r.offering.pricePerHour)}/h; saves ${dollars(command.savingsPerHour)}/h`;
  }
  return command.reason;
}

type Consolidating = Exclude<ConsolidationCommand, { kind: 'none' }>;

/** The scores in the decision's sentence, one per `Balanced` pool. */
function scored(scores: readonly PoolScore[]): string {
  return scores.map((s) => `; Balanced NodePool ${s.nodePool}: ${s.message}`).join('');
}

function decision(
  state: DisruptionState,
  candidates: readonly Candidate[],
  command: Consolidating,
  scores: readonly PoolScore[],
): DisruptionDecision {
  const multi = candidates.length > 1;
  const method = multi
    ? 'consolidation-multi'
    : command.kind === 'delete'
      ? 'consolidation-delete'
      : 'consolidation-replace';
  const prefix = multi ? `${candidates.length} underused nodes consolidated: ` : 'underused: ';
  return {
    method,
    reason: 'Underutilized',
    nodes: candidates.map((c) => c.node.name),
    replacements: command.kind === 'replace' ? [command.replacement] : [],
    savingsPerHour: command.savingsPerHour,
    message: prefix + describe(command) + scored(scores),
    budgets: budgetLine(state, candidates, 'Underutilized'),
    ...(scores.length === 0 ? {} : { scores }),
  };
}

function take(
  state: DisruptionState,
  candidates: readonly Candidate[],
  command: Consolidating,
  scores: readonly PoolScore[],
): void {
  state.decide(
    decision(state, candidates, command, scores),
    candidates.map((c) => c.pool.metadata.name),
  );
}

/** The largest prefix that consolidates, by binary search (core: firstNConsolidationOption). */
function multiNode(
  state: DisruptionState,
  simulator: RemovalSimulator,
  candidates: readonly Candidate[],
): boolean {
  const batch = candidates.slice(0, MAX_MULTI_NODE_CANDIDATES);
  if (batch.length < 2) return false;
  let min = 2;
  let max = batch.length;
  let best: { nodes: Candidate[]; command: Consolidating; scores: PoolScore[] } | undefined;
  while (min <= max && !state.input.outOfTime?.()) {
    const mid = Math.floor((min + max) / 2);
    const nodes = batch.slice(0, mid);
    const command = evaluate(state, simulator, nodes);
    const verdict =
      command.kind === 'none' ? undefined : evaluateBalanced(state, nodes, command.savingsPerHour);
    if (command.kind === 'none' || verdict?.approved !== true) max = mid - 1;
    else {
      best = { nodes, command, scores: [...verdict.scores] };
      min = mid + 1;
    }
  }
  if (best === undefined) return false;
  take(state, best.nodes, best.command, best.scores);
  return true;
}

type Judgement =
  | { readonly kind: 'stay'; readonly stay: Blocker }
  | { readonly kind: 'go'; readonly command: Consolidating; readonly scores: PoolScore[] };

/** One candidate's command, or why it stays: no command, or one its `Balanced` pool refuses. */
function judge(
  state: DisruptionState,
  simulator: RemovalSimulator,
  candidate: Candidate,
): Judgement {
  const best = deletionScore(state, candidate);
  if (best !== undefined && !isApproved(best)) {
    const reason = `Balanced: even deleting it would ${refusedMessage(best)}`;
    return { kind: 'stay', stay: { code: 'ScoreBelowThreshold', reason } };
  }
  const command = evaluate(state, simulator, [candidate]);
  if (command.kind === 'none') return { kind: 'stay', stay: command };
  const verdict = evaluateBalanced(state, [candidate], command.savingsPerHour);
  const refused = verdict.scores.find((s) => !isApproved(s));
  if (refused === undefined) return { kind: 'go', command, scores: [...verdict.scores] };
  const reason = `Balanced: ${describe(command)}, but ${refusedMessage(refused)}`;
  return { kind: 'stay', stay: { code: 'ScoreBelowThreshold', reason } };
}

/** One node at a time; the first that consolidates is taken, the rest explained or left for later. */
function singleNode(
  state: DisruptionState,
  simulator: RemovalSimulator,
  candidates: readonly Candidate[],
  alreadyDecided: boolean,
): void {
  let decided = alreadyDecided;
  for (const candidate of candidates) {
    const name = candidate.node.name;
    if (state.isDecided(name)) continue;
    if (decided && !state.input.explain) {
      state.stay(name, 'Later', 'not considered this pass: one consolidation is taken per pass');
      continue;
    }
    if (state.input.outOfTime?.()) {
      state.stay(name, 'OutOfTime', 'not considered: the pass ran out of time');
      continue;
    }
    const judgement = judge(state, simulator, candidate);
    if (judgement.kind === 'stay') {
      const { code, reason, unconsolidatable } = judgement.stay;
      state.stay(name, code, reason, unconsolidatable);
    } else if (decided)
      state.stay(
        name,
        'Later',
        `consolidatable (${describe(judgement.command)}) once the decision taken this pass is done`,
      );
    else {
      take(state, [candidate], judgement.command, judgement.scores);
      decided = true;
    }
  }
}

export function consolidate(
  state: DisruptionState,
  simulator: RemovalSimulator,
  skip: boolean,
): void {
  const candidates = withinBudgets(state, eligible(state));
  if (skip) {
    for (const c of candidates) {
      state.stay(
        c.node.name,
        'Later',
        'consolidation waits for the drift replacement decided this pass',
      );
    }
    return;
  }
  const decided = multiNode(state, simulator, candidates);
  singleNode(state, simulator, candidates, decided);
}
