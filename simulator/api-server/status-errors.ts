/**
 * `metav1.Status` bodies exactly as kube-apiserver sends them (apimachinery `api/errors`): the
 * message wording, the reason, `details` with empty fields left out, and the code. Handlers throw
 * `ApiError`; the server turns it into the response.
 */

import { aggregateMessage, errorBody, type FieldError } from './field-errors.ts';
import type { JsonObject } from './json.ts';

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

interface StatusFields {
  readonly code: number;
  readonly status?: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: StatusDetails;
}

/** Thrown by handlers; carries the Status body and the HTTP status it is sent with. */
export class ApiError extends Error {
  readonly status: JsonObject;
  readonly httpStatus: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: StatusFields, httpStatus = fields.code) {
    super(fields.message ?? `HTTP ${fields.code}`);
    this.name = 'ApiError';
    this.status = statusBody(fields);
    this.httpStatus = httpStatus;
    this.retryAfterSeconds = fields.details?.retryAfterSeconds;
  }
}

function compact(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(entries)) {
    // Go's omitempty: empty strings, zero numbers and empty slices are not serialised.
    if (value === undefined || value === '' || value === 0) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value as JsonObject[string];
  }
  return out;
}

function detailsBody(details: StatusDetails): JsonObject {
  const causes = (details.causes ?? []).map((cause) => compact({ ...cause }));
  return compact({
    name: details.name,
    group: details.group,
    kind: details.kind,
    uid: details.uid,
    causes,
    retryAfterSeconds: details.retryAfterSeconds,
  });
}

/** Key order follows the Go struct, so bodies read like the real server's. */
export function statusBody(fields: StatusFields): JsonObject {
  const body: JsonObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: fields.status ?? 'Failure',
  };
  if (fields.message) body.message = fields.message;
  if (fields.reason) body.reason = fields.reason;
  if (fields.details !== undefined) body.details = detailsBody(fields.details);
  // A zero code is omitted, as on the Status a generic delete answers with.
  if (fields.code !== 0) body.code = fields.code;
  return body;
}

/** `schema.GroupResource.String()`: `pods`, `daemonsets.apps`. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  return { name, group: gr.group, kind: gr.resource };
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError({
    code: 404,
    reason: 'NotFound',
    message: `${qualifiedResource(gr)} ${JSON.stringify(name)} not found`,
    details: resourceDetails(gr, name),
  });
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualifiedResource(gr)} ${JSON.stringify(name)} already exists`,
    details: resourceDetails(gr, name),
  });
}

export const OBJECT_MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(gr: GroupResource, name: string, cause: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${qualifiedResource(gr)} ${JSON.stringify(name)}: ${cause}`,
    details: resourceDetails(gr, name),
  });
}

export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): ApiError {
  const kind = gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
  return new ApiError({
    code: 422,
    reason: 'Invalid',
    message: `${kind} ${JSON.stringify(name)} is invalid: ${aggregateMessage(errors)}`,
    details: {
      name,
      group: gk.group,
      kind: gk.kind,
      causes: errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
    },
  });
}

/**
 * `errors.NewForbidden`: what the authorization filter answers a request its user may not make,
 * the resource and name leading the message when the request has them.
 */
export function forbidden(gr: GroupResource, name: string, cause: string): ApiError {
  const qualified = qualifiedResource(gr);
  const subject = name === '' ? qualified : `${qualified} ${JSON.stringify(name)}`;
  return new ApiError({
    code: 403,
    reason: 'Forbidden',
    message: qualified === '' ? `forbidden: ${cause}` : `${subject} is forbidden: ${cause}`,
    details: resourceDetails(gr, name),
  });
}

/** `errors.NewUnauthorized("Unauthorized")`: what the authentication filter answers bad credentials. */
export function unauthorized(): ApiError {
  return new ApiError({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
}

export function badRequest(message: string): ApiError {
  return new ApiError({ code: 400, reason: 'BadRequest', message });
}

export function tooManyRequests(
  message: string,
  retryAfterSeconds: number,
  causes: readonly StatusCause[] = [],
): ApiError {
  return new ApiError({
    code: 429,
    reason: 'TooManyRequests',
    message,
    details: { retryAfterSeconds, causes },
  });
}

/**
 * What `ErrorToAPIStatus` makes of an error that is not a Status: a 500 with no reason. The real
 * server answers this way for, e.g., a binding that fails validation.
 */
export function unclassified(message: string, code = 500): ApiError {
  return new ApiError({ code, message });
}

/** `errors.NewInternalError`: what an unexpected failure inside the server looks like. */
export function internalError(cause: string): ApiError {
  return new ApiError({
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: ${cause}`,
    details: { causes: [{ message: cause }] },
  });
}

export function methodNotAllowed(): ApiError {
  return genericServerResponse(405);
}

export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  });
}

const GENERIC: Record<number, readonly [string, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  403: ['Forbidden', 'forbidden'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  409: ['Conflict', 'the server reported a conflict'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: [
    'TooManyRequests',
    'the server has received too many requests and has asked us to try again later',
  ],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
};

/**
 * `errors.NewGenericServerResponse` with no resource: the body the server sends for unknown paths,
 * disallowed methods and failed JSON patches (`details: {}`).
 */
export function genericServerResponse(
  code: number,
  message?: string,
  retryAfterSeconds?: number,
): ApiError {
  const [reason, words] =
    GENERIC[code] ??
    (code >= 500
      ? ['InternalError', 'an error on the server has prevented the request from succeeding']
      : ['', '']);
  return new ApiError({
    code,
    reason,
    message: message ?? words,
    details: retryAfterSeconds === undefined ? {} : { retryAfterSeconds },
  });
}

/**
 * The Status a successful binding or eviction (code 201) or a generic delete (code 0, omitted)
 * answers with.
 */
export function success(code: number, details?: StatusDetails): JsonObject {
  return statusBody({ code, status: 'Success', ...(details === undefined ? {} : { details }) });
}
