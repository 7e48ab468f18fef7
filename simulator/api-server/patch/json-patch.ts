/**
 * JSON Patch (RFC 6902) over JSON Pointers (RFC 6901): add, remove, replace, move, copy, test.
 * A malformed document is a `JsonPatchDecodeError` (the server answers 400); an operation that
 * cannot apply, including a failed `test`, is a `JsonPatchApplyError` (the server answers 422).
 */

import { cloneJson, isJsonObject, type JsonObject, type JsonValue, jsonEqual } from '../json.ts';

export class JsonPatchDecodeError extends Error {
  override readonly name = 'JsonPatchDecodeError';
}

export class JsonPatchApplyError extends Error {
  override readonly name = 'JsonPatchApplyError';
}

export interface JsonPatchOperation {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: JsonValue;
}

function decodeOperation(entry: JsonValue): JsonPatchOperation {
  if (!isJsonObject(entry)) {
    throw new JsonPatchDecodeError(
      'json: cannot unmarshal array into Go value of type jsonpatch.Operation',
    );
  }
  const { op, path, from, value } = entry;
  return {
    op: typeof op === 'string' ? op : '',
    path: typeof path === 'string' ? path : '',
    ...(typeof from === 'string' ? { from } : {}),
    ...(value === undefined ? {} : { value }),
  };
}

/** The patch document must be an array of operation objects. */
export function decodeJsonPatch(document: JsonValue): JsonPatchOperation[] {
  if (!Array.isArray(document)) {
    const found = isJsonObject(document) ? 'object' : typeof document;
    throw new JsonPatchDecodeError(
      `json: cannot unmarshal ${found} into Go value of type jsonpatch.Patch`,
    );
  }
  return document.map(decodeOperation);
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchApplyError(`invalid JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

type Container = JsonObject | JsonValue[];

/** The container holding the pointer's last token, and that token. */
function locate(document: JsonValue, pointer: string): [Container, string] {
  const tokens = parsePointer(pointer);
  const last = tokens.pop();
  if (last === undefined) throw new JsonPatchApplyError('cannot address the document root here');
  let current: JsonValue | undefined = document;
  for (const token of tokens) {
    current = Array.isArray(current)
      ? current[Number(token)]
      : isJsonObject(current)
        ? current[token]
        : undefined;
    if (current === undefined) throw new JsonPatchApplyError(`doc is missing path: ${pointer}`);
  }
  if (!Array.isArray(current) && !isJsonObject(current)) {
    throw new JsonPatchApplyError(`doc is missing path: ${pointer}`);
  }
  return [current, last];
}

function arrayIndex(array: JsonValue[], token: string, allowEnd: boolean): number {
  if (allowEnd && token === '-') return array.length;
  const limit = allowEnd ? array.length : array.length - 1;
  if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) > limit) {
    throw new JsonPatchApplyError(`index out of range: ${token}`);
  }
  return Number(token);
}

function read(document: JsonValue, pointer: string): JsonValue {
  if (pointer === '') return document;
  const [container, token] = locate(document, pointer);
  const value = Array.isArray(container)
    ? container[arrayIndex(container, token, false)]
    : container[token];
  if (value === undefined) throw new JsonPatchApplyError(`doc is missing key: ${pointer}`);
  return value;
}

function add(document: JsonValue, pointer: string, value: JsonValue): JsonValue {
  if (pointer === '') return value;
  const [container, token] = locate(document, pointer);
  if (Array.isArray(container)) container.splice(arrayIndex(container, token, true), 0, value);
  else container[token] = value;
  return document;
}

function remove(document: JsonValue, pointer: string): JsonValue {
  const [container, token] = locate(document, pointer);
  if (Array.isArray(container)) {
    container.splice(arrayIndex(container, token, false), 1);
  } else {
    if (!(token in container))
      throw new JsonPatchApplyError(`unable to remove nonexistent key: ${token}`);
    delete container[token];
  }
  return document;
}

function replace(document: JsonValue, pointer: string, value: JsonValue): JsonValue {
  if (pointer === '') return value;
  read(document, pointer);
  const [container, token] = locate(document, pointer);
  if (Array.isArray(container)) container[arrayIndex(container, token, false)] = value;
  else container[token] = value;
  return document;
}

function requireValue(operation: JsonPatchOperation): JsonValue {
  if (operation.value === undefined) {
    throw new JsonPatchApplyError(`${operation.op} operation, missing value field`);
  }
  return operation.value;
}

function requireFrom(operation: JsonPatchOperation): string {
  if (operation.from === undefined)
    throw new JsonPatchApplyError(`${operation.op} operation, missing from field`);
  return operation.from;
}

function applyOperation(document: JsonValue, operation: JsonPatchOperation): JsonValue {
  switch (operation.op) {
    case 'add':
      return add(document, operation.path, cloneJson(requireValue(operation)));
    case 'remove':
      return remove(document, operation.path);
    case 'replace':
      return replace(document, operation.path, cloneJson(requireValue(operation)));
    case 'move': {
      const value = read(document, requireFrom(operation));
      return add(remove(document, requireFrom(operation)), operation.path, value);
    }
    case 'copy':
      return add(document, operation.path, cloneJson(read(document, requireFrom(operation))));
    case 'test':
      if (!jsonEqual(read(document, operation.path), requireValue(operation))) {
        throw new JsonPatchApplyError(`testing value ${operation.path} failed: test failed`);
      }
      return document;
    default:
      throw new JsonPatchApplyError(`Unexpected kind: ${operation.op}`);
  }
}

/** Applies the operations in order to a copy; the input is left untouched. */
export function applyJsonPatch(
  document: JsonValue,
  operations: readonly JsonPatchOperation[],
): JsonValue {
  return operations.reduce(applyOperation, cloneJson(document));
}
