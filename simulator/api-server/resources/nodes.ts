/**
 * core/v1 nodes: taint validation, `spec.providerID` set-once, and the node field selectors
 * (only `metadata.name` and `spec.unschedulable`, as the real conversion allows). Status is
 * written only through `nodes/{name}/status`. Nodes keep the status they are created with, as
 * a kubelet registering itself expects.
 */

import {
  duplicate,
  type FieldError,
  forbidden,
  notSupported,
  quoted,
  required,
} from '../field-errors.ts';
import { arrayAt, isJsonObject, type JsonObject, stringAt, valueAt } from '../json.ts';
import { nameOf } from '../object-meta.ts';
import { describeResource } from '../resource-descriptor.ts';
import { invalidEach, labelValueErrors, qualifiedNameErrors } from '../validation.ts';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Go's `%#v` of a core.Taint, which the duplicate-taint error prints. */
function goTaint(key: string, value: string, effect: string): string {
  return `core.Taint{Key:${quoted(key)}, Value:${quoted(value)}, Effect:${quoted(effect)}, TimeAdded:<nil>}`;
}

function validateTaint(taint: JsonObject, path: string, seen: Set<string>): FieldError[] {
  const key = stringAt(taint, 'key') ?? '';
  const value = stringAt(taint, 'value') ?? '';
  const effect = stringAt(taint, 'effect') ?? '';
  const errors = [
    ...invalidEach(`${path}.key`, key, qualifiedNameErrors(key)),
    ...(labelValueErrors(value).length > 0
      ? invalidEach(`${path}.value`, value, [labelValueErrors(value).join(';')])
      : []),
  ];
  if (effect === '') errors.push(required(`${path}.effect`));
  else if (!TAINT_EFFECTS.includes(effect))
    errors.push(notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
  const identity = `${effect}\u0000${key}`;
  if (seen.has(identity)) {
    return [
      ...errors,
      duplicate(path, goTaint(key, value, effect), 'taints must be unique by key and effect pair'),
    ];
  }
  seen.add(identity);
  return errors;
}

function validateNode(node: JsonObject): FieldError[] {
  const seen = new Set<string>();
  return arrayAt(node, 'spec.taints').flatMap((taint, index) =>
    isJsonObject(taint) ? validateTaint(taint, `spec.taints[${index}]`, seen) : [],
  );
}

function validateNodeUpdate(next: JsonObject, previous: JsonObject): FieldError[] {
  const before = stringAt(previous, 'spec.providerID') ?? '';
  const after = stringAt(next, 'spec.providerID') ?? '';
  if (before === '' || before === after) return [];
  return [
    forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'),
  ];
}

export const nodes = describeResource({
  resource: 'nodes',
  kind: 'Node',
  namespaced: false,
  hasStatus: true,
  storagePrefix: 'minions',
  fieldSelectors: {
    'metadata.name': nameOf,
    'spec.unschedulable': (node) => String(valueAt(node, 'spec.unschedulable') === true),
  },
  listStrategies: {
    'spec.podCIDRs': { mergePrimitives: true },
    'status.conditions': { mergeKey: 'type' },
    'status.addresses': { mergeKey: 'type' },
  },
  strategy: { validate: validateNode, validateUpdate: validateNodeUpdate },
});
