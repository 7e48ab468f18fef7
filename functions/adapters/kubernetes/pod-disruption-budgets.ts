/**
 * A policy/v1 PodDisruptionBudget object as a domain PodDisruptionBudget. The readers in
 * functions/manifests/kubernetes serve `nodesmith plan`, which has no use for budgets; this one
 * is built from their schemas so that it reads and fails the same way.
 */
import { z } from 'zod';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import { describeValue } from '../../manifests/issue-messages.ts';
import { DEFAULT_NAMESPACE, objectMeta } from '../../manifests/kubernetes/metadata.ts';
import { defined, integer, oneOf, optional, readWith } from '../../manifests/kubernetes/schema.ts';
import { labelSelector } from '../../manifests/kubernetes/selectors.ts';

/** `intstr.IntOrString`: a count, or a percentage as text. */
const intOrString = optional(
  z.union([z.int(), z.string()], {
    error: (issue) => `must be an integer or a percentage, got ${describeValue(issue.input)}`,
  }),
);

/** Status counts are absent until the disruption controller has looked at the budget. */
const count = optional(integer).transform((value) => value ?? 0);

const budgetSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(
      z.object({
        selector: optional(labelSelector),
        minAvailable: intOrString,
        maxUnavailable: intOrString,
        unhealthyPodEvictionPolicy: optional(oneOf(['IfHealthyBudget', 'AlwaysAllow'])),
      }),
    ),
    status: optional(
      z.object({
        disruptionsAllowed: count,
        currentHealthy: count,
        desiredHealthy: count,
        expectedPods: count,
      }),
    ),
  })
  .transform(
    ({ metadata: meta, spec, status }): PodDisruptionBudget =>
      defined({
        namespace: meta.namespace ?? DEFAULT_NAMESPACE,
        name: meta.name,
        ...spec,
        disruptionsAllowed: status?.disruptionsAllowed ?? 0,
        currentHealthy: status?.currentHealthy ?? 0,
        desiredHealthy: status?.desiredHealthy ?? 0,
        expectedPods: status?.expectedPods ?? 0,
      }),
  );

/** Throws ManifestError naming the field path, as the manifest readers do. */
export function toPodDisruptionBudget(object: unknown): PodDisruptionBudget {
  return readWith(budgetSchema, object);
}
