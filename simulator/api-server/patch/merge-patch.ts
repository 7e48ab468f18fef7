/** JSON Merge Patch (RFC 7386): objects merge key by key, `null` removes, anything else replaces. */

import { cloneJson, isJsonObject, type JsonValue } from '../json.ts';

export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result = isJsonObject(target) ? cloneJson(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
