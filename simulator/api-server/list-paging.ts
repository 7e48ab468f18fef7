/**
 * `limit`/`continue` paging. Tokens have the real shape (base64url of
 * `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`) and a page resumes after the last key
 * it returned. Unlike etcd, later pages read current data rather than the first page's snapshot,
 * though they report the snapshot's resourceVersion.
 */

import type { JsonObject } from './json.ts';
import { nameOf, namespaceOf } from './object-meta.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';
import { badRequest } from './status-errors.ts';

interface ContinueToken {
  readonly resourceVersion: string;
  readonly startKey: string;
}

export interface Page {
  readonly items: readonly JsonObject[];
  readonly resourceVersion: string;
  readonly continueToken?: string;
  readonly remainingItemCount?: number;
}

export interface PageRequest {
  readonly limit?: string | null;
  readonly continueToken?: string | null;
  /** Whether a label or field selector narrowed the list (then no remainingItemCount is given). */
  readonly filtered: boolean;
  readonly currentResourceVersion: string;
}

/** The object's key below the resource prefix, the order lists come in. */
export function storageKey(descriptor: ResourceDescriptor, object: JsonObject): string {
  return descriptor.namespaced ? `${namespaceOf(object)}/${nameOf(object)}` : nameOf(object);
}

function encode(resourceVersion: string, startKey: string): string {
  const json = JSON.stringify({
    v: 'meta.k8s.io/v1',
    rv: Number(resourceVersion),
    start: startKey,
  });
  return Buffer.from(json).toString('base64url');
}

function invalidToken(reason: string): never {
  throw badRequest(`invalid continue token: continue key is not valid: ${reason}`);
}

function decode(token: string): ContinueToken {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(token)) invalidToken('illegal base64 data at input byte 0');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString());
  } catch (error) {
    return invalidToken((error as Error).message);
  }
  const { v, rv, start } = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== 'meta.k8s.io/v1')
    invalidToken(`server does not recognize this encoded version ${JSON.stringify(v)}`);
  if (typeof rv !== 'number' || rv <= 0)
    invalidToken('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof start !== 'string') invalidToken('encoded start key is missing');
  return { resourceVersion: String(rv), startKey: start };
}

function parseLimit(limit: string | null | undefined): number | undefined {
  if (limit === undefined || limit === null || limit === '') return undefined;
  if (!/^-?\d+$/.test(limit))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(limit)}: invalid syntax`);
  const value = Number(limit);
  return value > 0 ? value : undefined;
}

/** One page of `items` (already in key order and filtered). */
export function paginate(
  descriptor: ResourceDescriptor,
  items: readonly JsonObject[],
  request: PageRequest,
): Page {
  const token = request.continueToken ? decode(request.continueToken) : undefined;
  const resourceVersion = token?.resourceVersion ?? request.currentResourceVersion;
  const remaining =
    token === undefined
      ? items
      : items.filter((item) => storageKey(descriptor, item) >= token.startKey);
  const limit = parseLimit(request.limit);
  if (limit === undefined || remaining.length <= limit)
    return { items: remaining, resourceVersion };
  const page = remaining.slice(0, limit);
  const last = page[page.length - 1];
  const continueToken = encode(
    resourceVersion,
    `${last === undefined ? '' : storageKey(descriptor, last)}\u0000`,
  );
  const left = remaining.length - limit;
  return {
    items: page,
    resourceVersion,
    continueToken,
    ...(request.filtered ? {} : { remainingItemCount: left }),
  };
}
