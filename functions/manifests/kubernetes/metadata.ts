/** The ObjectMeta fields the mappers use: identity, labels, ownership and deletion. */
import type { Labels } from '../../domain/label-selector.ts';
import {
  type At,
  asFields,
  at,
  describe,
  EMPTY_FIELDS,
  type Fields,
  fieldError,
  optionalBoolean,
  optionalFields,
  optionalList,
  optionalString,
  optionalStringMap,
  requiredString,
} from './fields.ts';

export const DEFAULT_NAMESPACE = 'default';

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels: Labels;
  readonly annotations: Labels;
  readonly creationTimestamp?: string;
  /** Kind of the owner reference marked `controller: true`. */
  readonly ownerKind?: string;
  /** `deletionTimestamp` is set: the object is being deleted. */
  readonly deleting: boolean;
}

const EMPTY_LABELS: Labels = Object.freeze({});

const METADATA = at(undefined, 'metadata');

export function readMetadata(object: Fields): ObjectMeta {
  const meta = optionalFields(object, 'metadata', undefined) ?? EMPTY_FIELDS;
  return {
    name: requiredString(meta, 'name', METADATA),
    namespace: optionalString(meta, 'namespace', METADATA),
    uid: optionalString(meta, 'uid', METADATA),
    labels: optionalStringMap(meta, 'labels', METADATA) ?? EMPTY_LABELS,
    annotations: optionalStringMap(meta, 'annotations', METADATA) ?? EMPTY_LABELS,
    creationTimestamp: optionalTimestamp(meta, 'creationTimestamp', METADATA),
    ownerKind: controllerKind(meta, METADATA),
    deleting: meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null,
  };
}

/** Labels of a pod template, whose metadata has no name. */
export function readTemplateLabels(template: Fields, parent: At): Labels {
  const meta = optionalFields(template, 'metadata', parent) ?? EMPTY_FIELDS;
  return optionalStringMap(meta, 'labels', at(parent, 'metadata')) ?? EMPTY_LABELS;
}

/** Serialized objects carry RFC 3339 text; `@kubernetes/client-node` objects carry Dates. */
function optionalTimestamp(meta: Fields, key: string, parent: At): string | undefined {
  const value = meta[key];
  if (value instanceof Date) return value.toISOString();
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  throw fieldError(at(parent, key), `expected a timestamp, got ${describe(value)}`);
}

function controllerKind(meta: Fields, parent: At): string | undefined {
  const owners = optionalList(meta, 'ownerReferences', parent, readOwner);
  return owners?.find((owner) => owner.controller)?.kind;
}

function readOwner(item: unknown, position: At): { kind: string; controller: boolean } {
  const owner = asFields(item, position);
  return {
    kind: requiredString(owner, 'kind', position),
    controller: optionalBoolean(owner, 'controller', position) === true,
  };
}
