/**
 * Strategic merge patch, as apimachinery `strategicpatch` applies it to built-in types. Maps merge
 * like JSON merge patch; a list merges only where the Go type declares `patchStrategy:"merge"`
 * (by `patchMergeKey`, or as a set of primitives), and every other list is replaced whole. Notably
 * `spec.taints`, `spec.tolerations` and container statuses are atomic lists: a patch carrying one
 * taint replaces them all, on the real server as here.
 *
 * Directives: `$patch: replace` and `$patch: delete` (on maps and list items),
 * `$deleteFromPrimitiveList/<field>` and `$retainKeys` are honoured; `$setElementOrder/<field>` is
 * accepted and ignored, so merged items keep the stored order and new ones are appended.
 */

import { cloneJson, isJsonObject, type JsonObject, type JsonValue, jsonEqual } from '../json.ts';

export type ListStrategy = { readonly mergeKey: string } | { readonly mergePrimitives: true };

/** List strategies by dotted field path from the object root (list positions left out). */
export type ListStrategies = Readonly<Record<string, ListStrategy>>;

export class StrategicPatchError extends Error {
  override readonly name = 'StrategicPatchError';
}

const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** Marks a map that a `$patch: delete` removed from its parent. */
const REMOVED = Symbol('removed');
type Merged = JsonValue | typeof REMOVED;

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/…`, `$setElementOrder/…`. */
function isDirectiveKey(key: string): boolean {
  return key.startsWith('$');
}

/** A patch value stored where nothing was: merged into emptiness, so directives are dropped. */
function withoutDirectives(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    return value
      .filter((item) => !(isJsonObject(item) && item.$patch !== undefined))
      .map(withoutDirectives);
  }
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (!isDirectiveKey(key) && child !== null) out[key] = withoutDirectives(child);
  }
  return out;
}

function retainKeys(original: JsonObject, patch: JsonObject): JsonObject {
  const retained = patch.$retainKeys;
  if (retained === undefined) return original;
  if (!Array.isArray(retained))
    throw new StrategicPatchError('invalid patch: $retainKeys must be a list');
  const keep = new Set(retained.map(String));
  return Object.fromEntries(Object.entries(original).filter(([key]) => keep.has(key)));
}

function deleteFromPrimitiveLists(result: JsonObject, patch: JsonObject): void {
  for (const [key, values] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
    const current = result[field];
    if (!Array.isArray(current) || !Array.isArray(values)) continue;
    result[field] = current.filter((item) => !values.some((v) => jsonEqual(v, item)));
  }
}

function mergeMap(
  original: JsonObject,
  patch: JsonObject,
  path: string,
  strategies: ListStrategies,
): Merged {
  const directive = patch.$patch;
  if (directive === 'replace') return withoutDirectives(patch);
  if (directive === 'delete') return REMOVED;
  if (directive !== undefined)
    throw new StrategicPatchError(`Unknown patch type: ${String(directive)}`);
  const result = cloneJson(retainKeys(original, patch));
  deleteFromPrimitiveLists(result, patch);
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue;
    const merged =
      value === null ? REMOVED : mergeValue(result[key], value, childPath(path, key), strategies);
    if (merged === REMOVED) delete result[key];
    else result[key] = merged;
  }
  return result;
}

function mergeValue(
  original: JsonValue | undefined,
  patch: JsonValue,
  path: string,
  strategies: ListStrategies,
): Merged {
  if (isJsonObject(patch)) {
    return mergeMap(isJsonObject(original) ? original : {}, patch, path, strategies);
  }
  if (!Array.isArray(patch)) return patch;
  const strategy = strategies[path];
  const current = Array.isArray(original) ? original : [];
  if (strategy === undefined) return withoutDirectives(patch);
  if ('mergeKey' in strategy) return mergeList(current, patch, strategy.mergeKey, path, strategies);
  return [...current, ...patch.filter((item) => !current.some((c) => jsonEqual(c, item)))];
}

function mergeKeyOf(item: JsonObject, mergeKey: string): JsonValue {
  const value = item[mergeKey];
  if (value === undefined) {
    throw new StrategicPatchError(
      `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`,
    );
  }
  return value;
}

function mergeList(
  original: JsonValue[],
  patch: JsonValue[],
  mergeKey: string,
  path: string,
  strategies: ListStrategies,
): JsonValue[] {
  if (patch.some((item) => isJsonObject(item) && item.$patch === 'replace')) {
    return withoutDirectives(patch) as JsonValue[];
  }
  const result = cloneJson(original);
  for (const item of patch) {
    if (!isJsonObject(item))
      throw new StrategicPatchError(`invalid list item for merge key ${mergeKey}`);
    const key = mergeKeyOf(item, mergeKey);
    const index = result.findIndex(
      (existing) => isJsonObject(existing) && jsonEqual(existing[mergeKey], key),
    );
    const merged = mergeMap(
      index >= 0 ? (result[index] as JsonObject) : {},
      item,
      path,
      strategies,
    );
    if (merged === REMOVED) {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = merged;
    } else {
      result.push(merged);
    }
  }
  return result;
}

/** Applies a strategic merge patch to a copy of `original`. */
export function strategicMergePatch(
  original: JsonObject,
  patch: JsonObject,
  strategies: ListStrategies,
): JsonObject {
  const merged = mergeMap(original, patch, '', strategies);
  if (merged === REMOVED || !isJsonObject(merged)) return {};
  return merged;
}
