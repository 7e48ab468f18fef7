/**
 * A policy/v1 PodDisruptionBudget object as a domain PodDisruptionBudget: what the controller
 * reads from the API server and `nodesmith disruption` reads from a kubectl dump.
 */
import * as z from 'zod';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import { describeValue } from '../issue-messages.ts';
import { DEFAULT_NAMESPACE, objectMeta } from './metadata.ts';
import { defined, integer, oneOf, optional, readWith } from './schema.ts';
import { labelSelector } from './selectors.ts';

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
