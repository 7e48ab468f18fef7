/**
 * Pod validation the fake enforces: containers present and named with an image, and the update
 * rule that makes a pod's spec immutable apart from a few fields (which is why schedulers bind
 * through `pods/binding` rather than by writing `spec.nodeName`).
 */

import { duplicate, type FieldError, forbidden, quoted, required } from '../field-errors.ts';
import {
  arrayAt,
  cloneJson,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonEqual,
  objectAt,
} from '../json.ts';

function validateContainers(spec: JsonObject, field: string, requireOne: boolean): FieldError[] {
  const containers = arrayAt(spec, field);
  if (requireOne && containers.length === 0) return [required(`spec.${field}`)];
  const seen = new Set<string>();
  return containers.flatMap((container, index) => {
    const path = `spec.${field}[${index}]`;
    const name =
      isJsonObject(container) && typeof container.name === 'string' ? container.name : '';
    const image =
      isJsonObject(container) && typeof container.image === 'string' ? container.image : '';
    const errors: FieldError[] = [];
    if (name === '') errors.push(required(`${path}.name`));
    else if (seen.has(name)) errors.push(duplicate(`${path}.name`, quoted(name)));
    seen.add(name);
    if (image === '') errors.push(required(`${path}.image`));
    return errors;
  });
}

export function validatePod(pod: JsonObject): FieldError[] {
  const spec = objectAt(pod, 'spec') ?? {};
  return [
    ...validateContainers(spec, 'containers', true),
    ...validateContainers(spec, 'initContainers', false),
  ];
}

const IMMUTABLE_SPEC =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function copyImages(target: JsonObject, source: JsonObject, field: string): void {
  const targets = arrayAt(target, field);
  const sources = arrayAt(source, field);
  targets.forEach((container, index) => {
    const from = sources[index];
    if (isJsonObject(container) && isJsonObject(from) && from.image !== undefined)
      container.image = from.image;
  });
}

function isSuperset(larger: readonly JsonValue[], smaller: readonly JsonValue[]): boolean {
  return smaller.every((item) => larger.some((candidate) => jsonEqual(candidate, item)));
}

/** The old spec with every field an update may change taken from the new one. */
function withMutableFieldsFrom(previous: JsonObject, next: JsonObject): JsonObject {
  const merged = cloneJson(previous);
  copyImages(merged, next, 'containers');
  copyImages(merged, next, 'initContainers');
  for (const field of ['activeDeadlineSeconds', 'terminationGracePeriodSeconds'] as const) {
    if (next[field] === undefined) delete merged[field];
    else merged[field] = next[field];
  }
  const tolerations = arrayAt(next, 'tolerations');
  if (isSuperset(tolerations, arrayAt(previous, 'tolerations'))) merged.tolerations = tolerations;
  // Scheduling gates may only be removed.
  const gates = arrayAt(next, 'schedulingGates');
  if (isSuperset(arrayAt(previous, 'schedulingGates'), gates)) {
    if (gates.length === 0) delete merged.schedulingGates;
    else merged.schedulingGates = gates;
  }
  return merged;
}

export function validatePodUpdate(next: JsonObject, previous: JsonObject): FieldError[] {
  const nextSpec = objectAt(next, 'spec') ?? {};
  const previousSpec = objectAt(previous, 'spec') ?? {};
  if (jsonEqual(withMutableFieldsFrom(previousSpec, nextSpec), nextSpec)) return [];
  return [forbidden('spec', IMMUTABLE_SPEC)];
}
