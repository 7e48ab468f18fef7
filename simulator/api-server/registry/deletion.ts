/**
 * delete and deletecollection, following `rest.BeforeDelete` and the generic store: preconditions
 * (409), graceful deletion for pods (deletionTimestamp = now + grace; only a shorter grace period
 * may follow; the kubelet's grace-0 delete removes the pod), finalizers holding any object
 * (deletionTimestamp set, removed once an update clears the last one), otherwise immediate
 * removal. Pods and namespaces answer with the object, every other resource with a Status.
 * `propagationPolicy` is accepted but there is no garbage collector, so dependents stay.
 */

import { isJsonObject, type JsonObject, type JsonValue } from '../json.ts';
import {
  finalizersOf,
  formatTimestamp,
  isDeleting,
  metadataOf,
  nameOf,
  namespaceOf,
  resourceVersionOf,
  uidOf,
} from '../object-meta.ts';
import { apiVersionOf, groupResourceOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { badRequest, conflict, success } from '../status-errors.ts';
import { type Registry, requireStored } from './context.ts';
import { listItem, selectObjects } from './read.ts';

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: Preconditions;
}

function parseBody(body: string): JsonObject {
  if (body.trim() === '') return {};
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(body) as JsonValue;
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  if (!isJsonObject(parsed))
    throw badRequest('json: cannot unmarshal non-object into Go value of type v1.DeleteOptions');
  return parsed;
}

function readPreconditions(value: JsonValue | undefined): Preconditions | undefined {
  if (!isJsonObject(value)) return undefined;
  return {
    ...(typeof value.uid === 'string' ? { uid: value.uid } : {}),
    ...(typeof value.resourceVersion === 'string'
      ? { resourceVersion: value.resourceVersion }
      : {}),
  };
}

/** Query parameters first, then the body's DeleteOptions over them, as the handler decodes them. */
export function parseDeleteOptions(query: URLSearchParams, body: string): DeleteOptions {
  const options = parseBody(body);
  const fromQuery = query.get('gracePeriodSeconds');
  const grace =
    typeof options.gracePeriodSeconds === 'number'
      ? options.gracePeriodSeconds
      : fromQuery === null
        ? undefined
        : Number(fromQuery);
  const preconditions = readPreconditions(options.preconditions);
  return {
    ...(grace === undefined || Number.isNaN(grace) ? {} : { gracePeriodSeconds: grace }),
    ...(preconditions === undefined ? {} : { preconditions }),
  };
}

function storagePath(descriptor: ResourceDescriptor, object: JsonObject): string {
  const key = descriptor.namespaced ? `${namespaceOf(object)}/${nameOf(object)}` : nameOf(object);
  return `/registry/${descriptor.storagePrefix}/${key}`;
}

/** A failed precondition, worded as the storage layer's InvalidObjError inside a Conflict. */
export function checkPreconditions(
  descriptor: ResourceDescriptor,
  object: JsonObject,
  preconditions?: Preconditions,
): void {
  const failure =
    preconditions?.uid !== undefined && preconditions.uid !== uidOf(object)
      ? `UID in precondition: ${preconditions.uid}, UID in object meta: ${uidOf(object)}`
      : preconditions?.resourceVersion !== undefined &&
          preconditions.resourceVersion !== resourceVersionOf(object)
        ? `ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${resourceVersionOf(object)}`
        : undefined;
  if (failure === undefined) return;
  throw conflict(
    groupResourceOf(descriptor),
    nameOf(object),
    `StorageError: invalid object, Code: 4, Key: ${storagePath(descriptor, object)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${failure}`,
  );
}

function removeNow(
  registry: Registry,
  descriptor: ResourceDescriptor,
  object: JsonObject,
): JsonObject {
  const removed =
    registry.store.delete(descriptor.resource, nameOf(object), namespaceOf(object)) ?? object;
  if (descriptor.returnsDeletedObject) return removed;
  return success(0, {
    name: nameOf(object),
    group: descriptor.group,
    kind: descriptor.resource,
    uid: uidOf(object),
  });
}

function markDeleting(
  registry: Registry,
  descriptor: ResourceDescriptor,
  object: JsonObject,
  grace: number,
): JsonObject {
  const metadata = metadataOf(object);
  metadata.deletionTimestamp = formatTimestamp(new Date(registry.now().getTime() + grace * 1000));
  metadata.deletionGracePeriodSeconds = grace;
  if (typeof metadata.generation === 'number' && metadata.generation > 0) metadata.generation += 1;
  descriptor.strategy.prepareForDeletion?.(object);
  return registry.store.update(descriptor.resource, object);
}

function isHeld(descriptor: ResourceDescriptor, object: JsonObject): boolean {
  return finalizersOf(object).length > 0 || (descriptor.strategy.holdsDeletion?.(object) ?? false);
}

/** A second delete may only shorten a pending grace period; otherwise it changes nothing. */
function deleteAgain(
  registry: Registry,
  descriptor: ResourceDescriptor,
  object: JsonObject,
  options: DeleteOptions,
): JsonObject {
  const pending = metadataOf(object).deletionGracePeriodSeconds;
  const requested = options.gracePeriodSeconds;
  if (
    typeof pending !== 'number' ||
    pending === 0 ||
    requested === undefined ||
    requested >= pending
  )
    return object;
  if (requested === 0 && !isHeld(descriptor, object))
    return removeNow(registry, descriptor, object);
  return markDeleting(registry, descriptor, object, Math.max(requested, 0));
}

export function deleteObject(
  registry: Registry,
  descriptor: ResourceDescriptor,
  name: string,
  namespace: string,
  options: DeleteOptions,
): JsonObject {
  const existing = requireStored(registry, descriptor, name, namespace);
  checkPreconditions(descriptor, existing, options.preconditions);
  if (isDeleting(existing)) return deleteAgain(registry, descriptor, existing, options);
  const grace = descriptor.strategy.gracePeriodSeconds?.(existing, options.gracePeriodSeconds) ?? 0;
  if (grace > 0 || isHeld(descriptor, existing))
    return markDeleting(registry, descriptor, existing, grace);
  return removeNow(registry, descriptor, existing);
}

/**
 * Called by update: a deleted object whose last finalizer went (and whose grace period is over)
 * is removed. Returns the removed object, or undefined when it stays.
 */
export function finishDeletionIfReleased(
  registry: Registry,
  descriptor: ResourceDescriptor,
  next: JsonObject,
): JsonObject | undefined {
  if (!isDeleting(next) || isHeld(descriptor, next)) return undefined;
  const grace = metadataOf(next).deletionGracePeriodSeconds;
  if (typeof grace === 'number' && grace > 0) return undefined;
  registry.store.update(descriptor.resource, next);
  return registry.store.delete(descriptor.resource, nameOf(next), namespaceOf(next));
}

/** Deletes every selected object; answers with the list of what was selected. */
export function deleteCollection(
  registry: Registry,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  query: URLSearchParams,
  options: DeleteOptions,
): JsonObject {
  const selected = selectObjects(registry, descriptor, namespace, query);
  for (const object of selected) {
    if (registry.store.get(descriptor.resource, nameOf(object), namespaceOf(object)) === undefined)
      continue;
    deleteObject(registry, descriptor, nameOf(object), namespaceOf(object), options);
  }
  return {
    kind: `${descriptor.kind}List`,
    apiVersion: apiVersionOf(descriptor),
    metadata: { resourceVersion: registry.store.resourceVersion },
    items: selected.map((object) => listItem(descriptor, object)),
  };
}
