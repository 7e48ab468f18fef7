/** JSON values as they travel over the wire, and the few helpers every module needs to walk them. */
import { copyJson } from '../memory/copy.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Stored objects are never shared with callers: every read and write goes through a copy. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return copyJson(value);
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => key in b && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** The child object at `key`, created when absent so callers can write into it. */
export function childObject(parent: JsonObject, key: string): JsonObject {
  const existing = parent[key];
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

/** The value at a dotted path such as `spec.nodeName`, or undefined when any step is missing. */
export function valueAt(root: JsonObject, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const step of path.split('.')) {
    if (!isJsonObject(current)) return undefined;
    current = current[step];
  }
  return current;
}

export function stringAt(root: JsonObject, path: string): string | undefined {
  const value = valueAt(root, path);
  return typeof value === 'string' ? value : undefined;
}

export function objectAt(root: JsonObject, path: string): JsonObject | undefined {
  const value = valueAt(root, path);
  return isJsonObject(value) ? value : undefined;
}

export function arrayAt(root: JsonObject, path: string): JsonValue[] {
  const value = valueAt(root, path);
  return Array.isArray(value) ? value : [];
}

/** A string-valued map (labels, annotations, nodeSelector); non-string entries are ignored. */
export function stringMapAt(root: JsonObject, path: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(objectAt(root, path) ?? {})) {
    if (typeof value === 'string') map[key] = value;
  }
  return map;
}
