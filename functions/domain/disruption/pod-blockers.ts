/**
 * What stops a node's pods from being evicted voluntarily (core: state/statenode.go,
 * ValidatePodsDisruptable; utils/pdb/pdb.go): a pod annotated `karpenter.sh/do-not-disrupt`, a
 * PodDisruptionBudget that allows no eviction now, or several budgets selecting one pod, which
 * the Eviction API refuses outright.
 */
import { selectorMatches } from '../label-selector.ts';
import { type Pod, podKey } from '../pod.ts';
import type { PodDisruptionBudget } from '../pod-disruption-budget.ts';
import { doNotDisrupt } from './do-not-disrupt.ts';

/** The budgets of each namespace, looked up once per pod. */
export type BudgetsByNamespace = ReadonlyMap<string, readonly PodDisruptionBudget[]>;

export function budgetsByNamespace(budgets: readonly PodDisruptionBudget[]): BudgetsByNamespace {
  const out = new Map<string, PodDisruptionBudget[]>();
  for (const budget of budgets) {
    const list = out.get(budget.namespace);
    if (list === undefined) out.set(budget.namespace, [budget]);
    else list.push(budget);
  }
  return out;
}

function guarding(pod: Pod, budgets: BudgetsByNamespace): PodDisruptionBudget[] {
  const own = budgets.get(pod.namespace) ?? [];
  // A budget without a selector guards nothing (policy/v1).
  return own.filter((b) => b.selector !== undefined && selectorMatches(b.selector, pod.labels));
}

/** Why this pod may not be evicted voluntarily now, or undefined. */
export function podBlocker(
  pod: Pod,
  budgets: BudgetsByNamespace,
  nowMs: number,
): string | undefined {
  if (doNotDisrupt(pod.annotations, pod.creationTimestamp, nowMs).active) {
    return `pod ${podKey(pod)} is annotated karpenter.sh/do-not-disrupt`;
  }
  const guards = guarding(pod, budgets);
  if (guards.length > 1) {
    const names = guards.map((b) => b.name).join(', ');
    return `pod ${podKey(pod)} is selected by several PodDisruptionBudgets (${names}); the Eviction API refuses such pods`;
  }
  const [guard] = guards;
  if (guard !== undefined && guard.disruptionsAllowed <= 0) {
    return `PodDisruptionBudget ${guard.namespace}/${guard.name} allows no disruption now (pod ${podKey(pod)})`;
  }
  return undefined;
}

/** The first pod that blocks, in the order given. */
export function firstPodBlocker(
  pods: readonly Pod[],
  budgets: BudgetsByNamespace,
  nowMs: number,
): string | undefined {
  for (const pod of pods) {
    const reason = podBlocker(pod, budgets, nowMs);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
