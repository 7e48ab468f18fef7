/** What every registry operation works against, and the lookups they share. */

import type { FieldError } from '../field-errors.ts';
import type { JsonObject } from '../json.ts';
import { nameOf } from '../object-meta.ts';
import { groupKindOf, groupResourceOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { invalid, notFound } from '../status-errors.ts';
import type { ObjectStore } from '../storage.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation.ts';
import type { WatchCache } from '../watch-cache.ts';

export interface Registry {
  readonly store: ObjectStore;
  readonly now: () => Date;
  /** Whether custom resources are served, as when their CustomResourceDefinitions are installed. */
  readonly customResources: boolean;
  /** Each resource's recent changes, which watches resume from. */
  readonly watchCache: WatchCache;
  /** kube-apiserver's WatchList feature gate: watches may stream the current state first. */
  readonly watchList: boolean;
}

/**
 * The stored object, or the 404 the server sends: a copy the caller may change, or with `shared`
 * the frozen stored object itself, for a caller that only reads it.
 */
export function requireStored(
  registry: Registry,
  descriptor: ResourceDescriptor,
  name: string,
  namespace: string,
  { shared = false } = {},
): JsonObject {
  const stored = shared
    ? registry.store.getShared(descriptor.resource, name, namespace)
    : registry.store.get(descriptor.resource, name, namespace);
  if (stored === undefined) throw notFound(groupResourceOf(descriptor), name);
  return stored;
}

/** Metadata and resource validation, plus the update rules when there is a previous object. */
export function validateOrThrow(
  descriptor: ResourceDescriptor,
  object: JsonObject,
  previous?: JsonObject,
): void {
  const errors: FieldError[] = [
    ...validateObjectMeta(descriptor, object),
    ...(previous === undefined ? [] : validateObjectMetaUpdate(object, previous)),
    ...(descriptor.strategy.validate?.(object) ?? []),
    ...(previous === undefined
      ? []
      : (descriptor.strategy.validateUpdate?.(object, previous) ?? [])),
  ];
  if (errors.length > 0) throw invalid(groupKindOf(descriptor), nameOf(object), errors);
}
