/**
 * The HTTP side: a node:http server on 127.0.0.1 with an ephemeral port that reads each request,
 * lets it in when access control is on (access-control.ts), consults the fault injector, serves
 * it from the registry, logs it and answers in JSON, or streams the watch it asks for.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../functions/adapters/http/read-body.ts';
import { type AccessControl, checkAccess } from './access-control.ts';
import { describe } from './catalog.ts';
import { runDisruptionController } from './controllers/disruption.ts';
import { runNamespaceLifecycle } from './controllers/namespace-lifecycle.ts';
import { FaultInjector, type FaultResponse } from './faults.ts';
import { type ApiRequest, handle, watchOf } from './handlers.ts';
import type { JsonObject } from './json.ts';
import type { Registry } from './registry/context.ts';
import type { WatchRequest } from './registry/watch.ts';
import { RequestLog } from './request-log.ts';
import { SERVING_CERTIFICATE, SERVING_KEY } from './serving-certificate.ts';
import { ApiError, internalError } from './status-errors.ts';
import { ObjectStore } from './storage.ts';
import { WatchCache } from './watch-cache.ts';
import { streamWatch } from './watch-stream.ts';

export interface FakeApiServerOptions {
  /** The clock behind every timestamp the server writes; the wall clock when absent. */
  readonly now?: () => Date;
  /** Namespaces that exist from the start; a cluster's four built-in ones when absent. */
  readonly namespaces?: readonly string[];
  /** Keep PodDisruptionBudget status current after every pod or budget write; on by default. */
  readonly disruptionController?: boolean;
  /**
   * Serve the custom resources (Karpenter's NodeClaims), as a cluster with Karpenter's
   * CustomResourceDefinitions installed does; on by default. Without, their paths answer 404
   * like any unknown resource, while the store still holds whatever is seeded.
   */
  readonly customResourceDefinitions?: boolean;
  /**
   * Serve HTTPS with the simulated serving certificate (serving-certificate.ts), as EKS does:
   * clients that verify TLS, as the deployed functions do, need it. Plain HTTP when absent.
   */
  readonly tls?: boolean;
  /** Authentication and authorization of every request; none when absent (see `controlAccess`). */
  readonly access?: AccessControl;
  /**
   * Changes each resource's watch cache keeps at least (watch-cache.ts); 100, kube-apiserver's
   * `--default-watch-cache-size`, when absent.
   */
  readonly watchCacheSize?: number;
  /**
   * kube-apiserver's WatchList feature gate (KEP-3157): watches may stream the current state
   * first (`sendInitialEvents`); on by default, as since Kubernetes 1.34 (it was off in 1.33 and
   * before 1.32). Off, such a watch is refused 422 and a watch from no resourceVersion sends the
   * state as it always did, without the bookmark that ends it.
   */
  readonly watchList?: boolean;
}

export interface FakeApiServer {
  /** `http://127.0.0.1:<port>`, or `https:` when serving TLS. */
  readonly url: string;
  readonly port: number;
  /** The objects: seed and inspect them directly (no validation, defaults or admission). */
  readonly store: ObjectStore;
  readonly requests: RequestLog;
  readonly faults: FaultInjector;
  /**
   * From now on, let requests in as `access` decides (undefined: every request, as before): the
   * deployed run turns it on once it knows the functions' credentials, after the server listens.
   */
  controlAccess(access: AccessControl | undefined): void;
  close(): Promise<void>;
}

const BUILT_IN_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function seedNamespace(store: ObjectStore, name: string): void {
  store.create('namespaces', {
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function failureAnswer(error: unknown): FaultResponse {
  const failure = error instanceof ApiError ? error : internalError(String(error));
  const retry = failure.retryAfterSeconds;
  // ErrorNegotiated: a Status asking for a delay also says so in Retry-After.
  const headers: Record<string, string> = {};
  if (retry !== undefined && retry > 0) headers['Retry-After'] = String(retry);
  return { status: failure.httpStatus, body: failure.status, headers };
}

function serveFromRegistry(registry: Registry, request: ApiRequest): FaultResponse {
  try {
    const { status, body } = handle(registry, request);
    return { status, body, headers: {} };
  } catch (error) {
    return failureAnswer(error);
  }
}

type Answer = { answer: FaultResponse; faulted: boolean } | { watch: WatchRequest };

/** A watch to stream, or the answer to anything else the registry serves. */
function serveOrWatch(registry: Registry, request: ApiRequest): Answer {
  try {
    const watch = watchOf(registry, request);
    if (watch !== undefined) return { watch };
  } catch (error) {
    return { answer: failureAnswer(error), faulted: false };
  }
  return { answer: serveFromRegistry(registry, request), faulted: false };
}

function write(
  response: ServerResponse,
  answer: { status: number; body: JsonObject; headers: Readonly<Record<string, string>> },
): void {
  response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
  // Go's json.Encoder ends every body with a newline.
  response.end(`${JSON.stringify(answer.body)}\n`);
}

interface Parts {
  readonly registry: Registry;
  readonly requests: RequestLog;
  readonly faults: FaultInjector;
  access: AccessControl | undefined;
}

function refusal(error: ApiError): FaultResponse {
  return { status: error.httpStatus, body: error.status, headers: {} };
}

/** The answer to a request access control refuses, or the registry's (or an injected fault's). */
async function answerTo(
  parts: Parts,
  request: ApiRequest,
  access: { url: URL; authorization: string | undefined },
): Promise<Answer> {
  const refused =
    parts.access === undefined
      ? undefined
      : await checkAccess(parts.access, { method: request.method, ...access });
  if (refused !== undefined) return { answer: refusal(refused), faulted: false };
  const fault = parts.faults.take(request.method, request.pathname);
  if (fault === undefined) return serveOrWatch(parts.registry, request);
  if (fault.afterApply) serveFromRegistry(parts.registry, request);
  return { answer: fault.response, faulted: true };
}

async function serve(
  parts: Parts,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const rawBody = await readBody(incoming);
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
  const method = (incoming.method ?? 'GET').toUpperCase();
  const headers = headersOf(incoming);
  const request: ApiRequest = {
    method,
    pathname: url.pathname,
    query: url.searchParams,
    contentType: headers['content-type'],
    body: rawBody,
  };
  const answered = await answerTo(parts, request, { url, authorization: headers.authorization });
  if ('watch' in answered) {
    parts.requests.record({ method, url, headers, rawBody, status: 200, faulted: false });
    streamWatch(parts.registry.watchCache, answered.watch, response);
    return;
  }
  const { answer, faulted } = answered;
  parts.requests.record({ method, url, headers, rawBody, status: answer.status, faulted });
  write(response, answer);
}

/** Starts a fake kube-apiserver; `close()` it when done. */
export async function startFakeApiServer(
  options: FakeApiServerOptions = {},
): Promise<FakeApiServer> {
  const now = options.now ?? (() => new Date());
  const store = new ObjectStore(describe, now);
  const watchCache = new WatchCache(store, now, { lowerBound: options.watchCacheSize });
  for (const name of options.namespaces ?? BUILT_IN_NAMESPACES) seedNamespace(store, name);
  const stops = [runNamespaceLifecycle(store, describe), () => watchCache.stop()];
  if (options.disruptionController ?? true) stops.push(runDisruptionController(store, now));
  const parts: Parts = {
    registry: {
      store,
      now,
      customResources: options.customResourceDefinitions ?? true,
      watchCache,
      watchList: options.watchList ?? true,
    },
    requests: new RequestLog(),
    faults: new FaultInjector(),
    access: options.access,
  };
  const listener = (incoming: IncomingMessage, response: ServerResponse) => {
    serve(parts, incoming, response).catch((error: unknown) => {
      write(response, { status: 500, body: internalError(String(error)).status, headers: {} });
    });
  };
  const server = options.tls
    ? createHttpsServer({ cert: SERVING_CERTIFICATE, key: SERVING_KEY }, listener)
    : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    store,
    requests: parts.requests,
    faults: parts.faults,
    controlAccess: (access) => {
      parts.access = access;
    },
    close: async () => {
      for (const stop of stops) stop();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
