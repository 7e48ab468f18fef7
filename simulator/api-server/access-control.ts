/**
 * How the server lets a request in, as kube-apiserver's filters do before any handler
 * (kubernetes/kubernetes, staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go
 * and authorization.go): the authenticator names the user a request's credentials belong to, or
 * answers 401; the authorizer decides what that user may do, or the server answers 403. A server
 * without access control, or a request without credentials the authenticator checks, is let in
 * unchecked: the simulation's own clients (seeding, kubectl's deletes, the tests) act as the
 * cluster's administrator.
 */
import { forbiddenMessage } from './forbidden-message.ts';
import type { RequestAttributes, UserInfo } from './request-attributes.ts';
import { requestInfo } from './request-info.ts';
import { type ApiError, forbidden, unauthorized } from './status-errors.ts';

export interface AuthorizationDecision {
  readonly allowed: boolean;
  /** Why, when the authorizer says; appended to a 403's message. */
  readonly reason: string;
}

/** A request the server refused before serving it, and the message it answered with. */
export interface AccessRefusal {
  readonly code: 401 | 403;
  /** Undefined when the credentials did not authenticate. */
  readonly attributes: RequestAttributes | undefined;
  readonly message: string;
}

export interface AccessControl {
  /**
   * The user the `Authorization` header's credentials belong to; `unauthorized` when they do not
   * hold; undefined when they are none the authenticator checks, to let the request in unchecked.
   */
  authenticate(authorization: string | undefined): Promise<UserInfo | 'unauthorized' | undefined>;
  authorize(attributes: RequestAttributes): AuthorizationDecision;
  /** Told of every refusal, for a run to report. */
  refused?(refusal: AccessRefusal): void;
}

export interface AccessRequest {
  readonly method: string;
  readonly url: URL;
  readonly authorization: string | undefined;
}

function refuse(access: AccessControl, refusal: AccessRefusal, error: ApiError): ApiError {
  access.refused?.(refusal);
  return error;
}

/** The Status to answer with when the request may not go on; undefined to serve it. */
export async function checkAccess(
  access: AccessControl,
  request: AccessRequest,
): Promise<ApiError | undefined> {
  const user = await access.authenticate(request.authorization);
  if (user === undefined) return undefined;
  if (user === 'unauthorized') {
    const error = unauthorized();
    return refuse(access, { code: 401, attributes: undefined, message: error.message }, error);
  }
  const info = requestInfo(request.method, request.url.pathname, request.url.searchParams);
  const attributes: RequestAttributes = { ...info, user };
  const decision = access.authorize(attributes);
  if (decision.allowed) return undefined;
  const reason = decision.reason === '' ? '' : `: ${decision.reason}`;
  const message = `${forbiddenMessage(attributes)}${reason}`;
  const error = forbidden(
    { group: attributes.apiGroup, resource: attributes.resource },
    attributes.name,
    message,
  );
  return refuse(access, { code: 403, attributes, message: error.message }, error);
}
