/**
 * Request bodies decoded the way the server's codecs reject them: unparseable JSON and wrong kinds
 * are 400s worded after `transformDecodeError`, a wrong apiVersion after the create handler's
 * check. (The Go JSON error text inside the message is node's, not Go's.)
 */

import { isJsonObject, type JsonObject, type JsonValue } from './json.ts';
import { badRequest } from './status-errors.ts';

export interface ExpectedType {
  readonly kind: string;
  /** The apiVersions the endpoint accepts, the first being the one it serves. */
  readonly apiVersions: readonly string[];
}

/** `summarizeData`: an object shown as text, anything else as hex, cut at 30 bytes. */
function summarize(body: string): string {
  const bytes = Buffer.from(body);
  if (bytes.length === 0) return '<empty>';
  const head = bytes.subarray(0, 30);
  const shown = body.startsWith('{') ? head.toString() : head.toString('hex');
  return bytes.length > 30 ? `${shown} ...` : shown;
}

function unrecognized(expected: ExpectedType, reason: string, body: string): never {
  throw badRequest(
    `the object provided is unrecognized (must be of type ${expected.kind}): couldn't get version/kind; json parse error: ${reason} (${summarize(body)})`,
  );
}

function parse(body: string, expected: ExpectedType): JsonValue {
  try {
    return JSON.parse(body) as JsonValue;
  } catch (error) {
    return unrecognized(expected, (error as Error).message, body);
  }
}

/** The body as an object of the expected kind and version; a 400 otherwise. */
export function decodeObject(body: string, expected: ExpectedType): JsonObject {
  const value = parse(body, expected);
  if (!isJsonObject(value)) {
    return unrecognized(
      expected,
      `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct`,
      body,
    );
  }
  const { kind, apiVersion } = value;
  const version = typeof apiVersion === 'string' ? apiVersion : (expected.apiVersions[0] ?? '');
  if (typeof kind === 'string' && kind !== '' && kind !== expected.kind) {
    throw badRequest(
      `${kind} in version ${JSON.stringify(version.split('/').pop())} cannot be handled as a ${expected.kind}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(version)}`,
    );
  }
  if (
    typeof apiVersion === 'string' &&
    apiVersion !== '' &&
    !expected.apiVersions.includes(apiVersion)
  ) {
    throw badRequest(
      `the API version in the data (${apiVersion}) does not match the expected API version (${expected.apiVersions[0] ?? ''})`,
    );
  }
  return value;
}
