/**
 * storage.k8s.io/v1 storageclasses and csinodes, node.k8s.io/v1 runtimeclasses: cluster-scoped,
 * no status, with the immutable fields their update validation guards.
 */

import { type FieldError, forbidden, invalid, quoted, required } from '../field-errors.ts';
import { type JsonObject, jsonEqual, stringAt } from '../json.ts';
import { describeResource } from '../resource-descriptor.ts';
import { dnsLabelErrors, invalidEach } from '../validation.ts';

const STORAGE_CLASS_IMMUTABLE = [
  'parameters',
  'provisioner',
  'reclaimPolicy',
  'volumeBindingMode',
] as const;

function validateStorageClassUpdate(next: JsonObject, previous: JsonObject): FieldError[] {
  return STORAGE_CLASS_IMMUTABLE.filter((field) => !jsonEqual(next[field], previous[field])).map(
    (field) => forbidden(field, `updates to ${field} are forbidden.`),
  );
}

export const storageClasses = describeResource({
  resource: 'storageclasses',
  group: 'storage.k8s.io',
  kind: 'StorageClass',
  namespaced: false,
  strategy: {
    defaults(storageClass) {
      storageClass.reclaimPolicy ??= 'Delete';
      storageClass.volumeBindingMode ??= 'Immediate';
    },
    validate: (storageClass) =>
      (stringAt(storageClass, 'provisioner') ?? '') === '' ? [required('provisioner')] : [],
    validateUpdate: validateStorageClassUpdate,
  },
});

export const csiNodes = describeResource({
  resource: 'csinodes',
  group: 'storage.k8s.io',
  kind: 'CSINode',
  namespaced: false,
  listStrategies: { 'spec.drivers': { mergeKey: 'name' } },
});

function validateRuntimeClass(runtimeClass: JsonObject): FieldError[] {
  const handler = stringAt(runtimeClass, 'handler') ?? '';
  return handler === ''
    ? [required('handler')]
    : invalidEach('handler', handler, dnsLabelErrors(handler));
}

export const runtimeClasses = describeResource({
  resource: 'runtimeclasses',
  group: 'node.k8s.io',
  kind: 'RuntimeClass',
  namespaced: false,
  strategy: {
    validate: validateRuntimeClass,
    validateUpdate(next, previous) {
      const handler = stringAt(next, 'handler') ?? '';
      return handler === stringAt(previous, 'handler')
        ? []
        : [invalid('handler', quoted(handler), 'field is immutable')];
    },
  },
});
