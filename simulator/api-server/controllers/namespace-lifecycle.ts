/**
 * A synchronous stand-in for the namespace controller: once a namespace is Terminating it
 * removes every namespaced object in it and then the namespace itself. Simplified: the real
 * controller deletes through the API, so graceful deletion and finalizers hold it up.
 */

import { isDeleting, nameOf, namespaceOf } from '../object-meta.ts';
import { RESOURCE_NAMES } from '../resource-names.ts';
import type { DescriptorLookup, ObjectStore, StoreChange } from '../storage.ts';

function purge(store: ObjectStore, describe: DescriptorLookup, namespace: string): void {
  for (const resource of RESOURCE_NAMES) {
    if (!describe(resource).namespaced) continue;
    for (const object of store.list(resource, namespace)) {
      store.delete(resource, nameOf(object), namespaceOf(object));
    }
  }
  store.delete('namespaces', namespace);
}

/** Starts the stand-in controller; returns the function that stops it. */
export function runNamespaceLifecycle(store: ObjectStore, describe: DescriptorLookup): () => void {
  return store.onChange((change: StoreChange) => {
    if (
      change.resource === 'namespaces' &&
      change.type === 'MODIFIED' &&
      isDeleting(change.object)
    ) {
      purge(store, describe, nameOf(change.object));
    }
  });
}
