/**
 * core/v1 namespaces: DNS-label names, the `kubernetes.io/metadata.name` label the server keeps
 * on every namespace, phase Active on create, and deletion held by `spec.finalizers` (the
 * namespace goes Terminating; the namespace lifecycle controller empties and removes it).
 */

import { arrayAt, childObject, type JsonObject, stringAt } from '../json.ts';
import { metadataOf, nameOf } from '../object-meta.ts';
import { describeResource } from '../resource-descriptor.ts';

function labelWithName(namespace: JsonObject): void {
  childObject(metadataOf(namespace), 'labels')['kubernetes.io/metadata.name'] = nameOf(namespace);
}

export const namespaces = describeResource({
  resource: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
  hasStatus: true,
  returnsDeletedObject: true,
  nameFormat: 'label',
  fieldSelectors: {
    'metadata.name': nameOf,
    'status.phase': (namespace) => stringAt(namespace, 'status.phase') ?? '',
  },
  listStrategies: { 'status.conditions': { mergeKey: 'type' } },
  strategy: {
    prepareForCreate(namespace) {
      const spec = childObject(namespace, 'spec');
      spec.finalizers ??= ['kubernetes'];
      namespace.status = { phase: 'Active' };
      labelWithName(namespace);
    },
    prepareForUpdate(next, previous) {
      // spec.finalizers change only through the finalize subresource.
      const finalizers = arrayAt(previous, 'spec.finalizers');
      childObject(next, 'spec').finalizers = finalizers;
      labelWithName(next);
    },
    holdsDeletion: (namespace) => arrayAt(namespace, 'spec.finalizers').length > 0,
    prepareForDeletion(namespace) {
      childObject(namespace, 'status').phase = 'Terminating';
    },
  },
});
