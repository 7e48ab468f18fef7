/**
 * URL paths to resources: `/api/v1/...` for the core group, `/apis/{group}/{version}/...` for the
 * rest; `namespaces/{ns}/{resource}[/{name}[/{subresource}]]` for namespaced resources,
 * `{resource}[/{name}[/{subresource}]]` for cluster-scoped ones and for lists across namespaces.
 */

import { findResource } from './catalog.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';

export interface Route {
  readonly descriptor: ResourceDescriptor;
  /** The namespace named in the path; undefined on cluster-wide paths. */
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

function groupVersion(segments: string[]): [string, string, string[]] | undefined {
  const [root, first, second, ...rest] = segments;
  if (root === 'api' && first === 'v1')
    return ['', 'v1', second === undefined ? [] : [second, ...rest]];
  if (root === 'apis' && first !== undefined && second !== undefined) return [first, second, rest];
  return undefined;
}

function route(
  descriptor: ResourceDescriptor | undefined,
  namespace: string | undefined,
  rest: string[],
): Route | undefined {
  const [name, subresource, extra] = rest;
  if (descriptor === undefined || extra !== undefined) return undefined;
  return { descriptor, namespace, name, subresource };
}

export function parseRoute(pathname: string): Route | undefined {
  const segments = pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  const located = groupVersion(segments);
  if (located === undefined) return undefined;
  const [group, version, rest] = located;
  const [first, namespace, resource, ...tail] = rest;
  if (first === undefined) return undefined;
  const namespacedResource =
    resource === undefined ? undefined : findResource(group, version, resource);
  if (first === 'namespaces' && namespace !== undefined && namespacedResource?.namespaced) {
    return route(namespacedResource, namespace, tail);
  }
  return route(findResource(group, version, first), undefined, rest.slice(1));
}
