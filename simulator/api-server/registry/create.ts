/**
 * create, in the order kube-apiserver runs it: decode, match the URL's namespace, admission
 * (the namespace must exist), generateName and the strategy's defaults, validation (422), then
 * storage (a set resourceVersion is a 500, a taken name a 409).
 */

import { decodeObject } from '../decode.ts';
import type { JsonObject } from '../json.ts';
import {
  generatedName,
  metadataOf,
  nameOf,
  namespaceOf,
  resourceVersionOf,
} from '../object-meta.ts';
import { apiVersionOf, groupResourceOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { alreadyExists, badRequest, notFound, unclassified } from '../status-errors.ts';
import { type Registry, validateOrThrow } from './context.ts';

function placeInNamespace(
  descriptor: ResourceDescriptor,
  object: JsonObject,
  namespace: string,
): void {
  const metadata = metadataOf(object);
  if (!descriptor.namespaced) {
    delete metadata.namespace;
    return;
  }
  const declared = namespaceOf(object);
  if (declared !== '' && declared !== namespace) {
    throw badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  metadata.namespace = namespace;
}

/** NamespaceLifecycle admission. */
function admitNamespace(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string,
): void {
  if (!descriptor.namespaced) return;
  if (registry.store.get('namespaces', namespace) === undefined) {
    throw notFound({ group: '', resource: 'namespaces' }, namespace);
  }
}

/** `rest.BeforeCreate`: the server owns uid, timestamps, generation and deletion fields. */
function resetSystemFields(descriptor: ResourceDescriptor, object: JsonObject): void {
  const metadata = metadataOf(object);
  for (const field of [
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'selfLink',
    'managedFields',
  ]) {
    delete metadata[field];
  }
  const prefix = typeof metadata.generateName === 'string' ? metadata.generateName : '';
  if (nameOf(object) === '' && prefix !== '') metadata.name = generatedName(prefix);
  if (descriptor.tracksGeneration) metadata.generation = 1;
}

export function createObject(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string,
  body: string,
): JsonObject {
  const object = decodeObject(body, {
    kind: descriptor.kind,
    apiVersions: [apiVersionOf(descriptor)],
  });
  placeInNamespace(descriptor, object, namespace);
  admitNamespace(registry, descriptor, namespace);
  const resourceVersionSent = resourceVersionOf(object) !== '';
  resetSystemFields(descriptor, object);
  descriptor.strategy.defaults?.(object);
  descriptor.strategy.prepareForCreate?.(object, { now: registry.now() });
  validateOrThrow(descriptor, object);
  if (resourceVersionSent)
    throw unclassified('resourceVersion should not be set on objects to be created');
  if (registry.store.get(descriptor.resource, nameOf(object), namespace) !== undefined) {
    throw alreadyExists(groupResourceOf(descriptor), nameOf(object));
  }
  return registry.store.create(descriptor.resource, object);
}
