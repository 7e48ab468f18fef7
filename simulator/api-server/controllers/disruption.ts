/**
 * The disruption controller's arithmetic (`pkg/controller/disruption`) and a synchronous stand-in
 * for the controller: after every write to a pod or a PodDisruptionBudget it recomputes the
 * budgets' status in that namespace, so `status.disruptionsAllowed` is always current.
 *
 * Simplified: the expected pod count is the number of pods the selector matches; the real
 * controller reads the owning controllers' replica counts for percentages and maxUnavailable,
 * so it keeps counting a pod that is gone and not yet replaced.
 */

import {
  arrayAt,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonEqual,
  objectAt,
  stringAt,
} from '../json.ts';
import { matchesLabels, requirementsOf } from '../label-selector.ts';
import {
  formatTimestamp,
  isDeleting,
  labelsOf,
  metadataOf,
  nameOf,
  namespaceOf,
} from '../object-meta.ts';
import type { ObjectStore, StoreChange } from '../storage.ts';

/** How long an approved eviction keeps a pod out of the healthy count (`DeletionTimeout`). */
const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export interface BudgetNumbers {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
}

export function isPodReady(pod: JsonObject): boolean {
  return arrayAt(pod, 'status.conditions').some(
    (c) => isJsonObject(c) && c.type === 'Ready' && c.status === 'True',
  );
}

/** Pods the budget's selector picks: a missing selector picks none, an empty one all. */
export function podsSelectedBy(budget: JsonObject, pods: readonly JsonObject[]): JsonObject[] {
  const selector = objectAt(budget, 'spec.selector');
  const requirements = selector === undefined ? undefined : requirementsOf(selector);
  if (requirements === undefined) return [];
  return pods.filter((pod) => matchesLabels(labelsOf(pod), requirements));
}

/** `intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true)`. */
function scaled(value: JsonValue | undefined, total: number): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const percent = /^(\d+)%$/.exec(value);
  return percent === null ? Number(value) : Math.ceil((Number(percent[1]) * total) / 100);
}

function activeDisruptions(
  budget: JsonObject,
  pods: readonly JsonObject[],
  now: Date,
): Set<string> {
  const disrupted = objectAt(budget, 'status.disruptedPods') ?? {};
  const active = new Set<string>();
  for (const pod of pods) {
    const since = disrupted[nameOf(pod)];
    if (isDeleting(pod) || typeof since !== 'string') continue;
    if (Date.parse(since) + DELETION_TIMEOUT_MS > now.getTime()) active.add(nameOf(pod));
  }
  return active;
}

function desiredHealthy(budget: JsonObject, expectedPods: number): number {
  const spec = objectAt(budget, 'spec') ?? {};
  if (spec.maxUnavailable !== undefined) {
    return Math.max(expectedPods - (scaled(spec.maxUnavailable, expectedPods) ?? 0), 0);
  }
  return scaled(spec.minAvailable, expectedPods) ?? 0;
}

/** `getExpectedPodCount`, `countHealthyPods` and the allowed-disruptions rule. */
export function budgetNumbers(
  budget: JsonObject,
  podsInNamespace: readonly JsonObject[],
  now: Date,
): BudgetNumbers {
  const selected = podsSelectedBy(budget, podsInNamespace);
  const disrupted = activeDisruptions(budget, selected, now);
  const currentHealthy = selected.filter(
    (pod) => !isDeleting(pod) && !disrupted.has(nameOf(pod)) && isPodReady(pod),
  ).length;
  const hasRule =
    objectAt(budget, 'spec')?.minAvailable !== undefined ||
    objectAt(budget, 'spec')?.maxUnavailable !== undefined;
  const expectedPods = hasRule ? selected.length : 0;
  const desired = desiredHealthy(budget, expectedPods);
  const allowed = expectedPods <= 0 ? 0 : Math.max(currentHealthy - desired, 0);
  return { expectedPods, currentHealthy, desiredHealthy: desired, disruptionsAllowed: allowed };
}

function disruptionAllowedCondition(budget: JsonObject, allowed: number, now: Date): JsonObject {
  const status = allowed > 0 ? 'True' : 'False';
  const previous = arrayAt(budget, 'status.conditions').find(
    (c) => isJsonObject(c) && c.type === 'DisruptionAllowed',
  );
  const since =
    isJsonObject(previous) && previous.status === status ? previous.lastTransitionTime : undefined;
  return {
    type: 'DisruptionAllowed',
    status,
    observedGeneration: metadataOf(budget).generation ?? 1,
    lastTransitionTime: since ?? formatTimestamp(now),
    reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
    message: '',
  };
}

/** The status the controller writes for a budget. */
export function budgetStatus(
  budget: JsonObject,
  podsInNamespace: readonly JsonObject[],
  now: Date,
): JsonObject {
  const numbers = budgetNumbers(budget, podsInNamespace, now);
  const selected = podsSelectedBy(budget, podsInNamespace);
  const active = activeDisruptions(budget, selected, now);
  const disrupted = objectAt(budget, 'status.disruptedPods') ?? {};
  const status: JsonObject = {
    observedGeneration: metadataOf(budget).generation ?? 1,
    ...(active.size > 0
      ? {
          disruptedPods: Object.fromEntries(
            [...active].map((name) => [name, disrupted[name] ?? null]),
          ),
        }
      : {}),
    disruptionsAllowed: numbers.disruptionsAllowed,
    currentHealthy: numbers.currentHealthy,
    desiredHealthy: numbers.desiredHealthy,
    expectedPods: numbers.expectedPods,
    conditions: [disruptionAllowedCondition(budget, numbers.disruptionsAllowed, now)],
  };
  return status;
}

function reconcileNamespace(store: ObjectStore, namespace: string, now: Date): void {
  const budgets = store.list('poddisruptionbudgets', namespace);
  // Most namespaces have no budget: then their pods need not be read (and copied) at all.
  if (budgets.length === 0) return;
  const pods = store.list('pods', namespace);
  for (const budget of budgets) {
    const status = budgetStatus(budget, pods, now);
    if (jsonEqual(status, budget.status)) continue;
    store.update('poddisruptionbudgets', { ...budget, status });
  }
}

/** Starts the stand-in controller; returns the function that stops it. */
export function runDisruptionController(store: ObjectStore, now: () => Date): () => void {
  const react = (change: StoreChange) => {
    if (change.resource !== 'pods' && change.resource !== 'poddisruptionbudgets') return;
    reconcileNamespace(store, namespaceOf(change.object), now());
  };
  for (const namespace of new Set(store.list('poddisruptionbudgets').map(namespaceOf))) {
    reconcileNamespace(store, namespace, now());
  }
  return store.onChange(react);
}

export function unhealthyPodEvictionPolicy(budget: JsonObject): string {
  return stringAt(budget, 'spec.unhealthyPodEvictionPolicy') ?? 'IfHealthyBudget';
}
