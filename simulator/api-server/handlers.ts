/** Dispatch from method and route to the registry, and the success status of each verb. */

import type { JsonObject } from './json.ts';
import type { Registry } from './registry/context.ts';
import { createObject } from './registry/create.ts';
import { deleteCollection, deleteObject, parseDeleteOptions } from './registry/deletion.ts';
import { getObject, listObjects } from './registry/read.ts';
import { patchObject, type Target, updateObject } from './registry/update.ts';
import { openWatch, type WatchRequest } from './registry/watch.ts';
import { parseRoute, type Route } from './routing.ts';
import { badRequest, genericServerResponse, methodNotAllowed } from './status-errors.ts';
import { bindPod } from './subresources/binding.ts';
import { evictPod } from './subresources/eviction.ts';

export interface ApiRequest {
  readonly method: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  readonly contentType: string | undefined;
  readonly body: string;
}

export interface ApiResponse {
  readonly status: number;
  readonly body: JsonObject;
}

function ok(body: JsonObject, status = 200): ApiResponse {
  return { status, body };
}

function collection(registry: Registry, route: Route, request: ApiRequest): ApiResponse {
  const { descriptor, namespace } = route;
  const wholeCluster = descriptor.namespaced && namespace === undefined;
  switch (request.method) {
    case 'GET':
      return ok(listObjects(registry, descriptor, namespace, request.query));
    case 'POST':
      if (wholeCluster) throw methodNotAllowed();
      return ok(createObject(registry, descriptor, namespace ?? '', request.body), 201);
    case 'DELETE':
      if (wholeCluster) throw methodNotAllowed();
      return ok(
        deleteCollection(
          registry,
          descriptor,
          namespace,
          request.query,
          parseDeleteOptions(request.query, request.body),
        ),
      );
    default:
      throw methodNotAllowed();
  }
}

function mainResource(registry: Registry, target: Target, request: ApiRequest): ApiResponse {
  const { descriptor, name, namespace } = target;
  switch (request.method) {
    case 'GET':
      return ok(getObject(registry, descriptor, name, namespace));
    case 'PUT':
      return ok(updateObject(registry, target, request.body));
    case 'PATCH':
      return ok(patchObject(registry, target, request.contentType, request.body));
    case 'DELETE':
      if (target.subresource !== undefined) throw methodNotAllowed();
      return ok(
        deleteObject(
          registry,
          descriptor,
          name,
          namespace,
          parseDeleteOptions(request.query, request.body),
        ),
      );
    default:
      throw methodNotAllowed();
  }
}

function podAction(registry: Registry, target: Target, request: ApiRequest): ApiResponse {
  if (request.method !== 'POST') throw methodNotAllowed();
  const act = target.subresource === 'binding' ? bindPod : evictPod;
  return ok(act(registry, target.namespace, target.name, request.body), 201);
}

function item(registry: Registry, route: Route, name: string, request: ApiRequest): ApiResponse {
  const { descriptor, subresource } = route;
  if (descriptor.namespaced && route.namespace === undefined) throw genericServerResponse(404);
  const target: Target = { descriptor, namespace: route.namespace ?? '', name, subresource };
  if (subresource === undefined || (subresource === 'status' && descriptor.hasStatus)) {
    return mainResource(registry, target, request);
  }
  if (descriptor.resource === 'pods' && (subresource === 'binding' || subresource === 'eviction')) {
    return podAction(registry, target, request);
  }
  throw genericServerResponse(404);
}

/** A custom resource whose definition is not installed has no path, as on a real server. */
function isServed(registry: Registry, route: Route): boolean {
  return registry.customResources || !route.descriptor.customResource;
}

/**
 * The watch a `GET <collection>?watch=true` asks for, ready to stream; undefined for any other
 * request. Throws `ApiError` for a bad query, answered as any other failure.
 */
export function watchOf(registry: Registry, request: ApiRequest): WatchRequest | undefined {
  if (request.method !== 'GET' || !/^(true|1)$/.test(request.query.get('watch') ?? '')) {
    return undefined;
  }
  const route = parseRoute(request.pathname);
  if (route === undefined || route.name !== undefined || !isServed(registry, route)) {
    return undefined;
  }
  return openWatch(registry, route.descriptor, route.namespace, request.query);
}

/** Serves one request; failures are thrown as `ApiError`. */
export function handle(registry: Registry, request: ApiRequest): ApiResponse {
  const route = parseRoute(request.pathname);
  if (route === undefined || !isServed(registry, route)) throw genericServerResponse(404);
  if (request.method !== 'GET' && request.query.has('dryRun')) {
    throw badRequest('dryRun is not supported by this server');
  }
  return route.name === undefined
    ? collection(registry, route, request)
    : item(registry, route, route.name, request);
}
