/**
 * Kubernetes API failures sorted into the port errors at the edge (docs/design.md §2.3), always
 * keeping client-node's ApiException as `cause`. client-node 1.4 leaves the server's Status body as
 * the raw JSON text, so it is parsed here, once; callers branch on the port error's class.
 */
import { ApiException } from '@kubernetes/client-node';
import {
  ConflictError,
  InvalidConfigError,
  NotFoundError,
  ThrottledError,
} from '../../ports/errors.ts';

/** What a request does: the words for messages and the RBAC verb and resource it needs. */
export interface ApiCall {
  /** "patching node n1". */
  readonly doing: string;
  readonly verb: 'get' | 'list' | 'create' | 'patch' | 'delete';
  /** With the subresource, as RBAC names it: `nodes`, `pods/eviction`. */
  readonly resource: string;
  /** The manifest whose ClusterRole grants the call, named in a 403. @default 'deploy/rbac.yaml' */
  readonly grantedBy?: string;
}

export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** The parts of a failed request's metav1.Status the adapter reads. */
export interface ApiStatus {
  readonly code: number;
  readonly message: string;
  readonly causes: readonly StatusCause[];
}

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseBody(body: unknown): Json {
  if (isJson(body)) return body;
  if (typeof body !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return isJson(parsed) ? parsed : {};
  } catch {
    // A proxy's HTML error page, say: the code still tells what happened.
    return {};
  }
}

function causesOf(status: Json): StatusCause[] {
  const details = status.details;
  if (!isJson(details) || !Array.isArray(details.causes)) return [];
  return details.causes.filter(isJson).map((cause) => ({
    reason: typeof cause.reason === 'string' ? cause.reason : undefined,
    message: typeof cause.message === 'string' ? cause.message : undefined,
    field: typeof cause.field === 'string' ? cause.field : undefined,
  }));
}

/** The Status of a request the server answered with an error; undefined for anything else. */
export function apiStatusOf(err: unknown): ApiStatus | undefined {
  if (!(err instanceof ApiException)) return undefined;
  const body = parseBody(err.body);
  const message = typeof body.message === 'string' ? body.message : '';
  return { code: err.code, message, causes: causesOf(body) };
}

type Translate = (call: ApiCall, detail: string, cause: unknown) => Error;

const BY_CODE: Readonly<Record<number, Translate>> = {
  401: (call, _detail, cause) =>
    new InvalidConfigError(
      `${call.doing}: the API server did not accept the credentials (401 Unauthorized): check the EKS access entry and token (docs/cluster-access.md)`,
      { cause },
    ),
  403: (call, detail, cause) =>
    new InvalidConfigError(
      `${call.doing}: ${call.resource} ${call.verb} is forbidden: check the ClusterRole in ${call.grantedBy ?? 'deploy/rbac.yaml'} (${detail})`,
      { cause },
    ),
  404: (call, detail, cause) => new NotFoundError(`${call.doing}: ${detail}`, { cause }),
  409: (call, detail, cause) => new ConflictError(`${call.doing}: ${detail}`, { cause }),
  422: (call, detail, cause) => new InvalidConfigError(`${call.doing}: ${detail}`, { cause }),
  429: (call, detail, cause) => new ThrottledError(`${call.doing}: ${detail}`, { cause }),
};

/** The port error `err` stands for, or `err` itself, so that every other failure keeps its cause. */
export function toPortError(err: unknown, call: ApiCall): unknown {
  const status = apiStatusOf(err);
  if (status === undefined) return err;
  const translate = BY_CODE[status.code];
  const detail = status.message === '' ? `HTTP ${status.code}` : status.message;
  return translate === undefined ? err : translate(call, detail, err);
}

/** Runs one request, rejecting with the port error its failure stands for. */
export async function request<T>(call: ApiCall, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    throw toPortError(err, call);
  }
}
