/**
 * Typed reads of the fields an object reader uses, each failure reported with its field path
 * (`spec.containers[1].ports[0].containerPort: expected an integer, got "80a"`). As in the API
 * server, `null` counts as absent. Fields nobody reads are never looked at: kubectl output
 * carries many, and they are none of our business.
 */
import type { Labels } from '../../domain/label-selector.ts';
import { isObjectFields, type ObjectFields } from '../documents.ts';
import { type FieldPath, formatFieldPath } from '../field-path.ts';
import { ManifestError } from '../manifest-error.ts';

export type Fields = ObjectFields;

/** A position in the object, linked to its parent so that a path costs nothing until an error needs it. */
export interface At {
  readonly parent: At | undefined;
  readonly key: string | number;
}

export const EMPTY_FIELDS: Fields = Object.freeze({});

export function at(parent: At | undefined, key: string | number): At {
  return { parent, key };
}

export const SPEC: At = at(undefined, 'spec');
export const STATUS: At = at(undefined, 'status');

export function pathOf(position: At | undefined): FieldPath {
  const path: (string | number)[] = [];
  for (let step = position; step !== undefined; step = step.parent) path.push(step.key);
  return path.reverse();
}

export function fieldError(
  position: At | undefined,
  detail: string,
  cause?: unknown,
): ManifestError {
  const path = formatFieldPath(pathOf(position));
  return new ManifestError(
    detail,
    path === '' ? {} : { path },
    cause === undefined ? {} : { cause },
  );
}

/** How a wrong value reads in a message. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a timestamp';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return String(value);
}

function expected(position: At, what: string, value: unknown): ManifestError {
  return fieldError(position, `expected ${what}, got ${describe(value)}`);
}

export function asFields(value: unknown, position: At | undefined): Fields {
  if (isObjectFields(value)) return value;
  throw position === undefined
    ? fieldError(undefined, `expected an object, got ${describe(value)}`)
    : expected(position, 'a mapping', value);
}

export function optionalFields(
  fields: Fields,
  key: string,
  parent: At | undefined,
): Fields | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (isObjectFields(value)) return value;
  throw expected(at(parent, key), 'a mapping', value);
}

export function requiredFields(fields: Fields, key: string, parent: At | undefined): Fields {
  const value = optionalFields(fields, key, parent);
  if (value === undefined) throw fieldError(at(parent, key), 'is required');
  return value;
}

export function optionalString(
  fields: Fields,
  key: string,
  parent: At | undefined,
): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  throw expected(at(parent, key), 'a string', value);
}

export function requiredString(fields: Fields, key: string, parent: At | undefined): string {
  const value = optionalString(fields, key, parent);
  if (value === undefined) throw fieldError(at(parent, key), 'is required');
  return value;
}

export function optionalInteger(
  fields: Fields,
  key: string,
  parent: At | undefined,
): number | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw expected(at(parent, key), 'an integer', value);
}

export function requiredInteger(fields: Fields, key: string, parent: At | undefined): number {
  const value = optionalInteger(fields, key, parent);
  if (value === undefined) throw fieldError(at(parent, key), 'is required');
  return value;
}

export function optionalBoolean(
  fields: Fields,
  key: string,
  parent: At | undefined,
): boolean | undefined {
  const value = fields[key];
  if (value === undefined || value === null || typeof value === 'boolean')
    return value ?? undefined;
  throw expected(at(parent, key), 'true or false', value);
}

export function optionalEnum<T extends string>(
  fields: Fields,
  key: string,
  parent: At | undefined,
  allowed: readonly T[],
): T | undefined {
  const value = optionalString(fields, key, parent);
  if (value === undefined || (allowed as readonly string[]).includes(value))
    return value as T | undefined;
  throw expected(at(parent, key), `one of ${allowed.join(', ')}`, value);
}

export function requiredEnum<T extends string>(
  fields: Fields,
  key: string,
  parent: At | undefined,
  allowed: readonly T[],
): T {
  const value = optionalEnum(fields, key, parent, allowed);
  if (value === undefined)
    throw fieldError(at(parent, key), `is required (one of ${allowed.join(', ')})`);
  return value;
}

/** A string-to-string map such as labels, annotations or a nodeSelector. */
export function optionalStringMap(
  fields: Fields,
  key: string,
  parent: At | undefined,
): Labels | undefined {
  const map = optionalFields(fields, key, parent);
  if (map === undefined) return undefined;
  for (const name in map) {
    if (typeof map[name] !== 'string')
      throw expected(at(at(parent, key), name), 'a string', map[name]);
  }
  return map as Labels;
}

/** The items of a list field, each read by `read`; an absent list is undefined. */
export function optionalList<T>(
  fields: Fields,
  key: string,
  parent: At | undefined,
  read: (item: unknown, position: At) => T,
): T[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw expected(at(parent, key), 'a list', value);
  const position = at(parent, key);
  return value.map((item, index) => read(item, at(position, index)));
}

/** As `optionalList`, with an absent list read as empty. */
export function list<T>(
  fields: Fields,
  key: string,
  parent: At | undefined,
  read: (item: unknown, position: At) => T,
): T[] {
  return optionalList(fields, key, parent, read) ?? [];
}

export function optionalStringList(
  fields: Fields,
  key: string,
  parent: At | undefined,
): string[] | undefined {
  return optionalList(fields, key, parent, readString);
}

function readString(value: unknown, position: At): string {
  if (typeof value === 'string') return value;
  throw expected(position, 'a string', value);
}

/**
 * The value without its undefined properties, so that mapped objects carry exactly the fields
 * that were set, as the domain's optional fields expect.
 */
export function defined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out as T;
}
