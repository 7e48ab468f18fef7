/**
 * The template's HTTP API on a port of 127.0.0.1, as API Gateway serves it: each request goes to
 * the route that matches it; a route with `AWS_IAM` authorization takes only a request whose
 * SigV4 signature its caller's secret makes (403 `Forbidden` otherwise, as API Gateway answers),
 * then the route's function is invoked with the proxy event of its payload format and its answer
 * is sent back. A request over its route's throttling is answered 429 before any of that. Whether
 * the caller's policies allow `execute-api:Invoke` is the authorizer's to say, when one is given.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../functions/adapters/http/read-body.ts';
import {
  type ApiContext,
  apiMessage,
  type HttpResponse,
  internalError,
  payloadV1,
  payloadV2,
  responseOf,
} from './http-api-event.ts';
import { type HttpApiRoute, type MatchedRoute, matchRoute } from './http-api-routes.ts';
import { type StageThrottling, ThrottleBuckets } from './http-api-throttling.ts';
import { credentialScope, type ReceivedRequest, signatureHolds } from './sigv4-signature.ts';

/** A principal the account knows: the secret of its access key and who it is. */
export interface KnownCaller {
  readonly secretAccessKey: string;
  /** The ARN of the user or role. */
  readonly arn: string;
}

export interface HttpApiOptions {
  readonly routes: readonly HttpApiRoute[];
  /** Invokes the function with the event; resolves with its answer, rejects when it fails. */
  readonly invoke: (functionLogicalId: string, event: unknown) => Promise<unknown>;
  /** The caller an access key belongs to; undefined for a key the account does not know. */
  readonly callerOf: (accessKeyId: string) => KnownCaller | undefined;
  /** Whether the caller may invoke the route (`execute-api:Invoke`); allowed when absent. */
  readonly mayInvoke?: (caller: KnownCaller, method: string, path: string) => boolean;
  readonly accountId: string;
  readonly apiId: string;
  /** Epoch milliseconds on the simulated clock. */
  readonly now: () => number;
  /** The stage's throttling; none when absent. */
  readonly throttling?: StageThrottling;
}

export interface HttpApi {
  readonly url: string;
  close(): Promise<void>;
}

function receivedRequest(request: IncomingMessage, body: string): ReceivedRequest {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.join(',') : String(v),
    ]),
  );
  return {
    method: request.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
  };
}

/** The IAM caller of a signed request; an API Gateway answer when it is refused. */
async function iamCaller(
  request: ReceivedRequest,
  options: HttpApiOptions,
): Promise<{ accessKey: string; caller: KnownCaller } | HttpResponse> {
  const scope = credentialScope(request.headers.authorization);
  const caller = scope === undefined ? undefined : options.callerOf(scope.accessKeyId);
  if (scope === undefined || caller === undefined) return apiMessage(403, 'Forbidden');
  if (!(await signatureHolds(request, caller.secretAccessKey))) return apiMessage(403, 'Forbidden');
  if (options.mayInvoke?.(caller, request.method, request.path) === false) {
    return apiMessage(403, 'Forbidden');
  }
  return { accessKey: scope.accessKeyId, caller };
}

async function integrate(
  request: ReceivedRequest,
  matched: MatchedRoute,
  context: ApiContext,
  options: HttpApiOptions,
): Promise<HttpResponse> {
  const { route } = matched;
  const payload =
    route.payloadFormatVersion === '1.0'
      ? payloadV1(request, matched, context)
      : payloadV2(request, matched, context);
  try {
    return responseOf(
      await options.invoke(route.functionLogicalId, payload),
      route.payloadFormatVersion,
    );
  } catch {
    return internalError();
  }
}

async function answer(
  request: ReceivedRequest,
  options: HttpApiOptions,
  buckets: ThrottleBuckets,
  sourceIp: string,
) {
  const matched = matchRoute(options.routes, request.method, request.path);
  if (matched === undefined) return apiMessage(404, 'Not Found');
  if (!buckets.take(matched.route.routeKey)) return apiMessage(429, 'Too Many Requests');
  const context: ApiContext = {
    accountId: options.accountId,
    apiId: options.apiId,
    requestId: randomUUID(),
    now: options.now(),
    sourceIp,
  };
  if (matched.route.authorizationType !== 'AWS_IAM')
    return integrate(request, matched, context, options);
  const iam = await iamCaller(request, options);
  if ('status' in iam) return iam;
  const signed = { ...context, iam: { accessKey: iam.accessKey, userArn: iam.caller.arn } };
  return integrate(request, matched, signed, options);
}

function send(response: ServerResponse, reply: HttpResponse): void {
  response.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.length });
  response.end(reply.body);
}

export async function startHttpApi(options: HttpApiOptions): Promise<HttpApi> {
  const buckets = new ThrottleBuckets(options.throttling ?? { routes: new Map() }, options.now);
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const received = receivedRequest(request, await readBody(request));
    const sourceIp = request.socket.remoteAddress ?? '127.0.0.1';
    send(response, await answer(received, options, buckets, sourceIp));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
