/**
 * A PodDisruptionBudget written by hand, or taken from a repository, has no `status`: the
 * cluster's disruption controller fills it in. Read from a file as it is, such a budget would
 * allow no disruption at all; `disruption -f` computes its status from the files' pods instead,
 * with the disruption controller's arithmetic (healthy pods the selector matches against
 * `minAvailable` or `maxUnavailable`, percentages rounded up). The pods stand for the scale of
 * their controllers, which a dump of pods does not carry.
 */

import type { PodDisruptionBudget } from '../../functions/domain/pod-disruption-budget.ts';
import { readDocuments } from '../../functions/manifests/documents.ts';
import type { ManifestFile } from '../../functions/manifests/load-cluster.ts';
import { budgetNumbers } from '../../simulator/api-server/controllers/disruption.ts';
import type { JsonObject } from '../../simulator/api-server/json.ts';

const DEFAULT_NAMESPACE = 'default';

function namespaceOf(object: JsonObject): string {
  const namespace = (object.metadata as JsonObject | undefined)?.namespace;
  return typeof namespace === 'string' ? namespace : DEFAULT_NAMESPACE;
}

function keyOf(object: JsonObject): string {
  return `${namespaceOf(object)}/${String((object.metadata as JsonObject | undefined)?.name)}`;
}

/** The status the disruption controller would give each budget of the files that has none. */
function computedStatuses(files: readonly ManifestFile[], now: Date): Map<string, JsonObject> {
  const documents = files.flatMap((f) => readDocuments(f.text, f.file));
  const of = (kind: string) =>
    documents.filter((d) => d.kind === kind).map((d) => d.object as JsonObject);
  const pods = of('Pod');
  const statuses = new Map<string, JsonObject>();
  for (const budget of of('PodDisruptionBudget').filter((b) => b.status === undefined)) {
    const inNamespace = pods.filter((p) => namespaceOf(p) === namespaceOf(budget));
    statuses.set(keyOf(budget), { ...budgetNumbers(budget, inNamespace, now) });
  }
  return statuses;
}

/** The budgets with the status of those the files left without one filled in. */
export function withComputedBudgetStatus(
  budgets: readonly PodDisruptionBudget[],
  files: readonly ManifestFile[],
  now: Date,
): PodDisruptionBudget[] {
  const statuses = computedStatuses(files, now);
  return budgets.map((budget) => {
    const status = statuses.get(`${budget.namespace}/${budget.name}`);
    return status === undefined ? budget : { ...budget, ...status };
  });
}
