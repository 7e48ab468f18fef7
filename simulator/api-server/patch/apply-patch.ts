/**
 * PATCH by content type, with the status codes kube-apiserver gives each failure: an unparseable
 * or malformed patch is a 400, a JSON patch that cannot apply (a failed `test` included) is the
 * generic 422, and an unknown content type is a 415 naming the accepted ones. The simulated
 * server serves no server-side apply (`application/apply-patch+yaml`): Nodesmith never sends it,
 * and a client that does gets that 415, as from a server without the feature. Custom resources
 * take no strategic merge patch either: it needs the patch strategies of a Go type, which a
 * CustomResourceDefinition does not have.
 */

import { isJsonObject, type JsonObject, type JsonValue } from '../json.ts';
import { badRequest, genericServerResponse, unsupportedMediaType } from '../status-errors.ts';
import {
  applyJsonPatch,
  decodeJsonPatch,
  JsonPatchApplyError,
  JsonPatchDecodeError,
} from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';
import {
  type ListStrategies,
  StrategicPatchError,
  strategicMergePatch,
} from './strategic-merge-patch.ts';

export const PatchType = {
  Json: 'application/json-patch+json',
  Merge: 'application/merge-patch+json',
  Strategic: 'application/strategic-merge-patch+json',
} as const;

const ACCEPTED: readonly string[] = [PatchType.Json, PatchType.Merge, PatchType.Strategic];
const ACCEPTED_BY_CUSTOM_RESOURCES: readonly string[] = [PatchType.Json, PatchType.Merge];

/** The media type without parameters such as `; charset=utf-8`. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function parse(body: string): JsonValue {
  try {
    return JSON.parse(body) as JsonValue;
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

function requireObject(patch: JsonValue): JsonObject {
  if (!isJsonObject(patch)) {
    throw badRequest(
      'json: cannot unmarshal non-object into Go value of type map[string]interface {}',
    );
  }
  return patch;
}

function jsonPatch(current: JsonObject, patch: JsonValue): JsonValue {
  try {
    return applyJsonPatch(current, decodeJsonPatch(patch));
  } catch (error) {
    if (error instanceof JsonPatchDecodeError) throw badRequest(error.message);
    if (error instanceof JsonPatchApplyError) throw genericServerResponse(422);
    throw error;
  }
}

function strategicPatch(
  current: JsonObject,
  patch: JsonValue,
  strategies: ListStrategies,
): JsonValue {
  try {
    return strategicMergePatch(current, requireObject(patch), strategies);
  } catch (error) {
    if (error instanceof StrategicPatchError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * The patched object, or an `ApiError` for the failures above. `strategies` are the list
 * strategies of a strategic merge patch; undefined for a custom resource, which refuses one.
 */
export function applyPatch(
  current: JsonObject,
  contentType: string | undefined,
  body: string,
  strategies: ListStrategies | undefined,
): JsonObject {
  const type = mediaType(contentType);
  const accepted = strategies === undefined ? ACCEPTED_BY_CUSTOM_RESOURCES : ACCEPTED;
  if (!accepted.includes(type)) throw unsupportedMediaType(accepted);
  const patch = parse(body);
  let patched: JsonValue;
  if (type === PatchType.Json) patched = jsonPatch(current, patch);
  else if (type === PatchType.Strategic && strategies !== undefined)
    patched = strategicPatch(current, patch, strategies);
  else patched = mergePatch(current, requireObject(patch));
  return requireObject(patched);
}
