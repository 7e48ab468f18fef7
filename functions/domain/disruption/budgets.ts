/**
 * NodePool disruption budgets (core: pkg/apis/v1/nodepool.go, GetAllowedDisruptionsByReason):
 * how many of a pool's nodes voluntary disruption may take for a reason right now. Every budget
 * that names the reason (or names none) and whose schedule window is open applies; the most
 * restrictive wins; a percentage of the pool's nodes rounds up; nodes already being disrupted or
 * NotReady use up the allowance. A budget that cannot be read allows nothing (fail closed).
 */
import { parseDuration } from '../duration.ts';
import type { DisruptionBudget, DisruptionReason, NodePool } from '../node-pool.ts';

/** Cron, evaluated by the caller's library: the first time `schedule` fires strictly after `afterMs`. */
export interface CronSchedules {
  /** Undefined when the expression cannot be read. */
  nextFire(schedule: string, afterMs: number): number | undefined;
}

/** Karpenter's default when a pool lists no budgets. */
export const DEFAULT_BUDGET: DisruptionBudget = { nodes: '10%' };

export interface PoolDisruptionCounts {
  /**
   * Initialized nodes of the pool, those whose instance is being terminated included: Karpenter
   * drops them once the claim is InstanceTerminating, so counting them allows at most as much.
   */
  readonly nodes: number;
  /** Of those, nodes being disrupted or deleted, and nodes reporting NotReady. */
  readonly disrupting: number;
}

export interface Allowance {
  /** Nodes that may still be disrupted for the reason now; Infinity when no budget applies. */
  readonly allowed: number;
  /** What the budgets allow before the nodes already disrupting are subtracted. */
  readonly budgeted: number;
  /** The budget that decided it, as written (`nodes: 10%`), or undefined when none applied. */
  readonly budget?: string;
}

/** Whether a scheduled budget is in its window: it fired within the last `duration`. */
function isActive(
  budget: DisruptionBudget,
  nowMs: number,
  cron: CronSchedules,
): boolean | undefined {
  if (budget.schedule === undefined && budget.duration === undefined) return true;
  if (budget.schedule === undefined || budget.duration === undefined) return undefined;
  const duration = parseDuration(budget.duration);
  if (duration === undefined) return undefined;
  const next = cron.nextFire(budget.schedule, nowMs - duration - 1);
  if (next === undefined) return undefined;
  return next <= nowMs;
}

/** `"3"` or `"10%"` of `nodes`, rounded up; undefined when unreadable. */
function scaled(value: string, nodes: number): number | undefined {
  if (/^[0-9]+$/.test(value)) return Number(value);
  const percent = /^([0-9]{1,3})%$/.exec(value);
  if (percent === null) return undefined;
  return Math.ceil((Number(percent[1]) * nodes) / 100);
}

function describe(budget: DisruptionBudget): string {
  const window =
    budget.schedule === undefined ? '' : ` (${budget.schedule} for ${budget.duration})`;
  const reasons = budget.reasons === undefined ? '' : ` for ${budget.reasons.join(', ')}`;
  return `nodes: ${budget.nodes}${window}${reasons}`;
}

export function allowance(
  pool: NodePool,
  reason: DisruptionReason,
  counts: PoolDisruptionCounts,
  nowMs: number,
  cron: CronSchedules,
): Allowance {
  const budgets = pool.spec.disruption?.budgets ?? [DEFAULT_BUDGET];
  let budgeted = Number.POSITIVE_INFINITY;
  let decided: string | undefined;
  for (const budget of budgets) {
    if (budget.reasons !== undefined && !budget.reasons.includes(reason)) continue;
    const active = isActive(budget, nowMs, cron);
    if (active === false) continue;
    const value = active === undefined ? undefined : scaled(budget.nodes, counts.nodes);
    if (value === undefined) return failClosed(budget);
    if (value < budgeted) {
      budgeted = value;
      decided = describe(budget);
    }
  }
  const allowed = Math.max(0, budgeted - counts.disrupting);
  return decided === undefined ? { allowed, budgeted } : { allowed, budgeted, budget: decided };
}

function failClosed(budget: DisruptionBudget): Allowance {
  return { allowed: 0, budgeted: 0, budget: `${describe(budget)} cannot be read` };
}
