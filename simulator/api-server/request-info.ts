/**
 * What authorization sees of a request, worked out from its method, path and query as
 * kube-apiserver's RequestInfoFactory does (kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go): a resource request under
 * `/api/{version}` or `/apis/{group}/{version}`, with its verb, namespace, resource, name and
 * subresource; anything else a non-resource request whose verb is the lower-cased method.
 */

export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The URL path, as non-resource rules match it. */
  readonly path: string;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`; `get`, `post`… for non-resource requests. */
  readonly verb: string;
  /** `''` for the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** `''` when cluster-wide. */
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** Verbs written as the first segment after the version (`/api/v1/watch/pods`). */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** `namespaces/{name}/status` and `/finalize` are the namespace's own subresources. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const VERB_BY_METHOD: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** `[group, version, rest]`, or undefined for a path outside the resource prefixes. */
function groupVersion(parts: readonly string[]): [string, string, string[]] | undefined {
  const [prefix, ...rest] = parts;
  if (prefix === 'api' && rest.length >= 2) return ['', rest[0] ?? '', rest.slice(1)];
  if (prefix === 'apis' && rest.length >= 3) return [rest[0] ?? '', rest[1] ?? '', rest.slice(2)];
  return undefined;
}

/** The parts after the namespace, unless the path names the namespace itself. */
function namespaced(parts: string[]): { namespace: string; parts: string[] } {
  if (parts[0] !== 'namespaces') return { namespace: '', parts };
  const namespace = parts[1] ?? '';
  const third = parts[2];
  const own = third === undefined || NAMESPACE_SUBRESOURCES.has(third);
  return { namespace, parts: own ? parts : parts.slice(2) };
}

/** A GET without a name lists or watches; a DELETE without one deletes the collection. */
function collectionVerb(verb: string, name: string, query: URLSearchParams): string {
  if (name !== '') return verb;
  if (verb === 'get') {
    const watch = query.get('watch');
    return watch === null || /^(false|0)$/i.test(watch) ? 'list' : 'watch';
  }
  return verb === 'delete' ? 'deletecollection' : verb;
}

/**
 * A list or watch that a field selector narrows to one name (`metadata.name=x`, alone or among
 * other terms) is about that name, so `resourceNames` rules can allow it.
 */
function selectedName(query: URLSearchParams): string {
  const terms = (query.get('fieldSelector') ?? '').split(',');
  const exact = terms.map((term) => /^metadata\.name==?([^=/%]+)$/.exec(term.trim())?.[1]);
  const name = exact.find((value) => value !== undefined) ?? '';
  return name === '.' || name === '..' ? '' : name;
}

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const segments = path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter((s) => s !== '');
  const located = groupVersion(segments);
  if (located === undefined) return nonResource(path, method);
  const [apiGroup, apiVersion, afterVersion] = located;
  const special = SPECIAL_VERBS.has(afterVersion[0] ?? '') && afterVersion.length >= 2;
  const verb = special ? (afterVersion[0] ?? '') : (VERB_BY_METHOD[method.toUpperCase()] ?? '');
  const { namespace, parts } = namespaced(special ? afterVersion.slice(1) : afterVersion);
  const [resource = '', named = '', third] = parts;
  const subresource = third !== undefined && verb !== 'proxy' ? third : '';
  const name = named === '' && verb === 'get' ? selectedName(query) : named;
  return {
    isResourceRequest: true,
    path,
    verb: collectionVerb(verb, named, query),
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
  };
}
