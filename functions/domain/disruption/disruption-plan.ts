/**
 * Voluntary disruption for one snapshot, in Karpenter's order (kubernetes-sigs/karpenter
 * `pkg/controllers/disruption`; docs/disruption.md): unhealthy nodes past their toleration
 * (node/health, a forceful method of its own there); expired nodes; empty nodes within their
 * budgets; static pools' drifted nodes; one drifted node; then consolidation. Empty nodes go in the same pass as a drift or
 * consolidation command rather than a pass ahead of it, since the simulation counts them as gone.
 * Pure and deterministic: the controller and the `disruption` command call it with the same
 * snapshot and get the same answer.
 */
import type { DisruptionInput } from './disruption-input.ts';
import type { DisruptionPlan } from './disruption-plan-types.ts';
import { DisruptionState } from './disruption-state.ts';
import { consolidate } from './methods/consolidation.ts';
import { replaceDrifted } from './methods/drift.ts';
import { removeEmpty } from './methods/emptiness.ts';
import { expire } from './methods/expiration.ts';
import { repair } from './methods/repair.ts';
import { keepStaticNodes, replaceStaticDrifted } from './methods/static-drift.ts';
import { RemovalSimulator } from './removal-simulation.ts';

export function planDisruption(input: DisruptionInput): DisruptionPlan {
  const state = new DisruptionState(input);
  const simulator = new RemovalSimulator(input, state.settling());
  repair(state);
  expire(state, simulator);
  removeEmpty(state);
  const staticDrifted = replaceStaticDrifted(state);
  const drifted = replaceDrifted(state, simulator);
  consolidate(state, simulator, drifted || staticDrifted);
  keepStaticNodes(state);
  return { decisions: state.decisions, staying: state.staying() };
}
