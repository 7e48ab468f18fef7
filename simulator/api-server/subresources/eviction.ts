/**
 * `POST pods/{name}/eviction` (policy/v1 Eviction), following `EvictionREST.Create`: a pod that is
 * Pending, finished or already deleting is deleted without looking at budgets; a pod covered by
 * more than one PodDisruptionBudget is refused with a 500; a budget with no disruptions allowed
 * is the 429 TooManyRequests with a DisruptionBudget cause; otherwise the eviction is recorded in
 * the budget (disruptionsAllowed - 1, disruptedPods) and the pod deleted as a DELETE with the
 * eviction's deleteOptions would delete it. Success is a 201 Status.
 *
 * Budgets are read from their stored status, which the disruption controller keeps current.
 */

import {
  isPodReady,
  podsSelectedBy,
  unhealthyPodEvictionPolicy,
} from '../controllers/disruption.ts';
import { decodeObject } from '../decode.ts';
import { isJsonObject, type JsonObject, type JsonValue, objectAt, stringAt } from '../json.ts';
import { formatTimestamp, isDeleting, nameOf } from '../object-meta.ts';
import { type Registry, requireStored } from '../registry/context.ts';
import { type DeleteOptions, deleteObject, parseDeleteOptions } from '../registry/deletion.ts';
import { pods } from '../resources/pods.ts';
import { ApiError, badRequest, success, tooManyRequests } from '../status-errors.ts';

const MORE_THAN_ONE_BUDGET =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
const WOULD_VIOLATE = "Cannot evict pod as it would violate the pod's disruption budget.";

/** Terminal, pending and deleting pods are deleted without consulting budgets. */
function canIgnoreBudgets(pod: JsonObject): boolean {
  const phase = stringAt(pod, 'status.phase');
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || isDeleting(pod);
}

/** Budgets with a non-empty selector that matches the pod (an empty one matches nothing here). */
function coveringBudgets(registry: Registry, pod: JsonObject, namespace: string): JsonObject[] {
  return registry.store.list('poddisruptionbudgets', namespace).filter((budget) => {
    const selector = objectAt(budget, 'spec.selector');
    if (selector === undefined || Object.keys(selector).length === 0) return false;
    return podsSelectedBy(budget, [pod]).length === 1;
  });
}

function statusNumber(budget: JsonObject, field: string): number {
  const value: JsonValue | undefined = objectAt(budget, 'status')?.[field];
  return typeof value === 'number' ? value : 0;
}

/** An unready pod may go while the budget is met (or always, under AlwaysAllow) without a debit. */
function unreadyPodMayGo(pod: JsonObject, budget: JsonObject): boolean {
  if (isPodReady(pod)) return false;
  if (unhealthyPodEvictionPolicy(budget) === 'AlwaysAllow') return true;
  const desired = statusNumber(budget, 'desiredHealthy');
  return statusNumber(budget, 'currentHealthy') >= desired && desired > 0;
}

/**
 * `checkAndDecrement`: refuse while the controller has not caught up with the budget's spec or
 * when no disruption is left, else debit the budget and remember the pod.
 */
function debitBudget(registry: Registry, budget: JsonObject, podName: string): void {
  const generation = objectAt(budget, 'metadata')?.generation;
  if (typeof generation === 'number' && statusNumber(budget, 'observedGeneration') < generation) {
    throw tooManyRequests(WOULD_VIOLATE, 10, [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${nameOf(budget)} is still being processed by the server.`,
      },
    ]);
  }
  const allowed = statusNumber(budget, 'disruptionsAllowed');
  if (allowed <= 0) {
    throw tooManyRequests(WOULD_VIOLATE, 0, [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${nameOf(budget)} needs ${statusNumber(budget, 'desiredHealthy')} healthy pods and has ${statusNumber(budget, 'currentHealthy')} currently`,
      },
    ]);
  }
  const status = objectAt(budget, 'status') ?? {};
  const disrupted = isJsonObject(status.disruptedPods) ? status.disruptedPods : {};
  registry.store.update('poddisruptionbudgets', {
    ...budget,
    status: {
      ...status,
      disruptionsAllowed: allowed - 1,
      disruptedPods: { ...disrupted, [podName]: formatTimestamp(registry.now()) },
    },
  });
}

function checkBudgets(registry: Registry, pod: JsonObject, namespace: string, name: string): void {
  const budgets = coveringBudgets(registry, pod, namespace);
  if (budgets.length > 1) throw new ApiError({ code: 500, message: MORE_THAN_ONE_BUDGET });
  const [budget] = budgets;
  if (budget === undefined || unreadyPodMayGo(pod, budget)) return;
  debitBudget(registry, budget, name);
}

function deleteOptionsOf(eviction: JsonObject): DeleteOptions {
  const options = eviction.deleteOptions;
  return parseDeleteOptions(
    new URLSearchParams(),
    isJsonObject(options) ? JSON.stringify(options) : '',
  );
}

export function evictPod(
  registry: Registry,
  namespace: string,
  name: string,
  body: string,
): JsonObject {
  const eviction = decodeObject(body, {
    kind: 'Eviction',
    apiVersions: ['policy/v1', 'policy/v1beta1'],
  });
  if (nameOf(eviction) !== name)
    throw badRequest('name in URL does not match name in Eviction object');
  const options = deleteOptionsOf(eviction);
  const pod = requireStored(registry, pods, name, namespace);
  if (!canIgnoreBudgets(pod)) checkBudgets(registry, pod, namespace, name);
  deleteObject(registry, pods, name, namespace, options);
  return success(201);
}
