/** get and list, with label/field selectors and paging. */

import { checkSupportedFields, matchesFields, parseFieldSelector } from '../field-selector.ts';
import type { JsonObject } from '../json.ts';
import { matchesLabels, parseLabelSelector } from '../label-selector.ts';
import { paginate } from '../list-paging.ts';
import { labelsOf } from '../object-meta.ts';
import { apiVersionOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { type Registry, requireStored } from './context.ts';

/** The stored object as it is: a get only serializes it, so it is not copied. */
export function getObject(
  registry: Registry,
  descriptor: ResourceDescriptor,
  name: string,
  namespace: string,
): JsonObject {
  return requireStored(registry, descriptor, name, namespace, { shared: true });
}

/**
 * Objects in a list carry no kind or apiVersion, as in the real server's typed lists; custom
 * resources keep both, as every item of an unstructured list does.
 */
export function listItem(descriptor: ResourceDescriptor, object: JsonObject): JsonObject {
  if (descriptor.customResource) return object;
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
  return rest;
}

/**
 * The objects a selector query picks, in key order; shared by list and deletecollection. They are
 * the stored objects themselves, frozen: both only read and serialize them.
 */
export function selectObjects(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  query: URLSearchParams,
): readonly JsonObject[] {
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  checkSupportedFields(descriptor, fields);
  return registry.store
    .listShared(descriptor.resource, namespace)
    .filter(
      (object) =>
        matchesLabels(labelsOf(object), labels) && matchesFields(descriptor, object, fields),
    );
}

/** `{kind: PodList, apiVersion, metadata: {resourceVersion, continue?, remainingItemCount?}, items}`. */
export function listObjects(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  query: URLSearchParams,
): JsonObject {
  const selected = selectObjects(registry, descriptor, namespace, query);
  const page = paginate(descriptor, selected, {
    limit: query.get('limit'),
    continueToken: query.get('continue'),
    filtered: Boolean(query.get('labelSelector') || query.get('fieldSelector')),
    currentResourceVersion: registry.store.resourceVersion,
  });
  const metadata: JsonObject = { resourceVersion: page.resourceVersion };
  if (page.continueToken !== undefined) metadata.continue = page.continueToken;
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  return {
    kind: `${descriptor.kind}List`,
    apiVersion: apiVersionOf(descriptor),
    metadata,
    items: page.items.map((object) => listItem(descriptor, object)),
  };
}
