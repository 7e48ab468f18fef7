/**
 * A policy/v1 PodDisruptionBudget object as a domain PodDisruptionBudget. The sibling readers in
 * functions/manifests/kubernetes serve `nodesmith plan`, which has no use for budgets; this one
 * is written with their field helpers so that it reads and fails the same way.
 */
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import {
  type At,
  asFields,
  at,
  defined,
  describe,
  EMPTY_FIELDS,
  type Fields,
  fieldError,
  optionalEnum,
  optionalFields,
  optionalInteger,
  SPEC,
  STATUS,
} from '../../manifests/kubernetes/fields.ts';
import { DEFAULT_NAMESPACE, readMetadata } from '../../manifests/kubernetes/metadata.ts';
import { optionalLabelSelector } from '../../manifests/kubernetes/selectors.ts';

const EVICTION_POLICIES = ['IfHealthyBudget', 'AlwaysAllow'] as const;

/** `intstr.IntOrString`: a count, or a percentage as text. */
function optionalIntOrString(fields: Fields, key: string, parent: At): number | string | undefined {
  const value = fields[key];
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw fieldError(at(parent, key), `expected an integer or a percentage, got ${describe(value)}`);
}

/** Status counts are absent until the disruption controller has looked at the budget. */
function count(status: Fields, key: string): number {
  return optionalInteger(status, key, STATUS) ?? 0;
}

/** Throws ManifestError naming the field path, as the manifest readers do. */
export function toPodDisruptionBudget(object: unknown): PodDisruptionBudget {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  const status = optionalFields(fields, 'status', undefined) ?? EMPTY_FIELDS;
  return defined({
    namespace: meta.namespace ?? DEFAULT_NAMESPACE,
    name: meta.name,
    selector: optionalLabelSelector(spec, 'selector', SPEC),
    minAvailable: optionalIntOrString(spec, 'minAvailable', SPEC),
    maxUnavailable: optionalIntOrString(spec, 'maxUnavailable', SPEC),
    unhealthyPodEvictionPolicy: optionalEnum(
      spec,
      'unhealthyPodEvictionPolicy',
      SPEC,
      EVICTION_POLICIES,
    ),
    disruptionsAllowed: count(status, 'disruptionsAllowed'),
    currentHealthy: count(status, 'currentHealthy'),
    desiredHealthy: count(status, 'desiredHealthy'),
    expectedPods: count(status, 'expectedPods'),
  });
}
