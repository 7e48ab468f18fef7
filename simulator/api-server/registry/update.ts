/**
 * update (PUT) and patch, which share everything after the incoming object is known: the
 * resourceVersion precondition (409), status kept apart from the rest (the main resource cannot
 * change status; `/status` can change nothing else), server-owned metadata carried over,
 * generation bumped on spec changes, validation (422), no-op writes skipped (the resourceVersion
 * stays), and removal once the last finalizer of a deleted object is gone.
 */

import { decodeObject } from '../decode.ts';
import { cloneJson, type JsonObject, jsonEqual } from '../json.ts';
import {
  carrySystemFields,
  metadataOf,
  nameOf,
  namespaceOf,
  resourceVersionOf,
} from '../object-meta.ts';
import { applyPatch } from '../patch/apply-patch.ts';
import { apiVersionOf, groupResourceOf, type ResourceDescriptor } from '../resource-descriptor.ts';
import { badRequest, conflict, OBJECT_MODIFIED } from '../status-errors.ts';
import { type Registry, requireStored, validateOrThrow } from './context.ts';
import { finishDeletionIfReleased } from './deletion.ts';

export interface Target {
  readonly descriptor: ResourceDescriptor;
  readonly namespace: string;
  readonly name: string;
  /** `status` for the status subresource; undefined for the main resource. */
  readonly subresource: string | undefined;
}

/** `checkName`: the body cannot rename the object or move it to another namespace. */
function checkName(object: JsonObject, target: Target): void {
  if (nameOf(object) !== target.name) {
    throw badRequest(
      `the name of the object (${nameOf(object)}) does not match the name on the URL (${target.name})`,
    );
  }
  const namespace = namespaceOf(object);
  if (target.descriptor.namespaced && namespace !== '' && namespace !== target.namespace) {
    throw badRequest(
      `the namespace of the object (${namespace}) does not match the namespace on the request (${target.namespace})`,
    );
  }
}

function specOf(object: JsonObject): JsonObject {
  const { metadata: _m, status: _s, kind: _k, apiVersion: _a, ...spec } = object;
  return spec;
}

/** The object to store: the incoming status only (status subresource), or all but status. */
function merged(target: Target, existing: JsonObject, incoming: JsonObject): JsonObject {
  if (target.subresource === 'status') {
    const next = cloneJson(existing);
    if (incoming.status === undefined) delete next.status;
    else next.status = incoming.status;
    return next;
  }
  const next = cloneJson(incoming);
  if (target.descriptor.hasStatus) {
    if (existing.status === undefined) delete next.status;
    else next.status = existing.status;
  }
  if (target.descriptor.namespaced) metadataOf(next).namespace = target.namespace;
  return next;
}

function bumpGeneration(
  descriptor: ResourceDescriptor,
  next: JsonObject,
  existing: JsonObject,
): void {
  if (!descriptor.tracksGeneration || jsonEqual(specOf(next), specOf(existing))) return;
  const generation = metadataOf(existing).generation;
  metadataOf(next).generation = (typeof generation === 'number' ? generation : 0) + 1;
}

function withoutResourceVersion(object: JsonObject): JsonObject {
  const copy = cloneJson(object);
  delete metadataOf(copy).resourceVersion;
  return copy;
}

function applyUpdate(
  registry: Registry,
  target: Target,
  existing: JsonObject,
  incoming: JsonObject,
): JsonObject {
  const { descriptor } = target;
  const sentVersion = resourceVersionOf(incoming);
  if (sentVersion !== '' && sentVersion !== resourceVersionOf(existing)) {
    throw conflict(groupResourceOf(descriptor), target.name, OBJECT_MODIFIED);
  }
  const next = merged(target, existing, incoming);
  carrySystemFields(next, existing);
  if (target.subresource !== 'status') {
    descriptor.strategy.defaults?.(next);
    descriptor.strategy.prepareForUpdate?.(next, existing);
  }
  bumpGeneration(descriptor, next, existing);
  validateOrThrow(descriptor, next, existing);
  metadataOf(next).resourceVersion = resourceVersionOf(existing);
  const stored = { ...next, kind: descriptor.kind, apiVersion: apiVersionOf(descriptor) };
  if (jsonEqual(withoutResourceVersion(stored), withoutResourceVersion(existing))) return existing;
  return (
    finishDeletionIfReleased(registry, descriptor, stored) ??
    registry.store.update(descriptor.resource, stored)
  );
}

export function updateObject(registry: Registry, target: Target, body: string): JsonObject {
  const incoming = decodeObject(body, {
    kind: target.descriptor.kind,
    apiVersions: [apiVersionOf(target.descriptor)],
  });
  checkName(incoming, target);
  const existing = requireStored(registry, target.descriptor, target.name, target.namespace);
  return applyUpdate(registry, target, existing, incoming);
}

export function patchObject(
  registry: Registry,
  target: Target,
  contentType: string | undefined,
  body: string,
): JsonObject {
  const { descriptor } = target;
  const existing = requireStored(registry, descriptor, target.name, target.namespace);
  const strategies = descriptor.customResource ? undefined : descriptor.listStrategies;
  const patched = applyPatch(existing, contentType, body, strategies);
  checkName(patched, target);
  return applyUpdate(registry, target, existing, patched);
}
