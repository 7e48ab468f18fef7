/**
 * deploy/rbac.yaml and deploy/rbac-adoption.yaml read with the `yaml` package, and a request's
 * RBAC attributes worked out from its method and path as kube-apiserver's RequestInfoFactory
 * does, so tests can tell whether the ClusterRoles allow what the adapter sent.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { RecordedRequest } from '../../../simulator/api-server/index.ts';

/** The controller's grant, then the one applied only when it adopts Karpenter's nodes. */
export const RBAC_FILES = [
  new URL('../../../deploy/rbac.yaml', import.meta.url),
  new URL('../../../deploy/rbac-adoption.yaml', import.meta.url),
] as const;

/** The ClusterRoles the controller's group `nodesmith:controller` is bound to. */
export const CONTROLLER_ROLES = ['nodesmith', 'nodesmith-adoption'] as const;

export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface RbacDocument {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly rules?: readonly PolicyRule[];
  readonly roleRef?: { readonly apiGroup: string; readonly kind: string; readonly name: string };
  readonly subjects?: readonly {
    readonly kind: string;
    readonly name: string;
    readonly apiGroup?: string;
  }[];
}

function readDocuments(file: URL): RbacDocument[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  return documents.map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS() as RbacDocument;
  });
}

/** Every document of deploy/rbac.yaml, then of deploy/rbac-adoption.yaml. */
export function readRbacDocuments(files: readonly URL[] = RBAC_FILES): RbacDocument[] {
  return files.flatMap(readDocuments);
}

export function clusterRoleRules(
  documents: readonly RbacDocument[],
  name = 'nodesmith',
): readonly PolicyRule[] {
  const role = documents.find((d) => d.kind === 'ClusterRole' && d.metadata.name === name);
  if (role === undefined) throw new Error(`deploy has no ClusterRole ${name}`);
  return role.rules ?? [];
}

/** What the controller may do with adoption on: both of its ClusterRoles' rules. */
export function controllerRules(documents: readonly RbacDocument[]): readonly PolicyRule[] {
  return CONTROLLER_ROLES.flatMap((name) => clusterRoleRules(documents, name));
}

/** What RBAC checks a resource request against. */
export interface RequestAttributes {
  readonly apiGroup: string;
  /** With the subresource: `pods/eviction`. */
  readonly resource: string;
  readonly verb: string;
}

function resourceParts(path: string): { apiGroup: string; parts: string[] } {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments[0] === 'api') return { apiGroup: '', parts: segments.slice(2) };
  if (segments[0] === 'apis') return { apiGroup: segments[1] ?? '', parts: segments.slice(3) };
  throw new Error(`not a resource path: ${path}`);
}

/** `namespaces/{ns}/{resource}/…` is namespaced; `namespaces` and `namespaces/{name}` are not. */
function withoutNamespace(parts: string[]): string[] {
  return parts[0] === 'namespaces' && parts.length >= 3 ? parts.slice(2) : parts;
}

const VERB_BY_METHOD: Readonly<Record<string, [withName: string, withoutName: string]>> = {
  GET: ['get', 'list'],
  POST: ['create', 'create'],
  PUT: ['update', 'update'],
  PATCH: ['patch', 'patch'],
  DELETE: ['delete', 'deletecollection'],
};

export function attributesOf(
  request: Pick<RecordedRequest, 'method' | 'path' | 'query'>,
): RequestAttributes {
  const { apiGroup, parts } = resourceParts(request.path);
  const [resource = '', name, subresource] = withoutNamespace(parts);
  const verbs = VERB_BY_METHOD[request.method];
  if (verbs === undefined) throw new Error(`no RBAC verb for ${request.method}`);
  const verb = request.query.watch === 'true' ? 'watch' : verbs[name === undefined ? 1 : 0];
  return {
    apiGroup,
    resource: subresource === undefined ? resource : `${resource}/${subresource}`,
    verb,
  };
}

function allows(values: readonly string[], value: string): boolean {
  return values.includes('*') || values.includes(value);
}

export function ruleAllows(rule: PolicyRule, attributes: RequestAttributes): boolean {
  return (
    allows(rule.apiGroups, attributes.apiGroup) &&
    allows(rule.resources, attributes.resource) &&
    allows(rule.verbs, attributes.verb)
  );
}

/** Requests no rule allows, as `verb group/resource` lines. */
export function uncovered(
  rules: readonly PolicyRule[],
  requests: readonly Pick<RecordedRequest, 'method' | 'path' | 'query'>[],
): string[] {
  return requests
    .map(attributesOf)
    .filter((attributes) => !rules.some((rule) => ruleAllows(rule, attributes)))
    .map(
      ({ verb, apiGroup, resource }) =>
        `${verb} ${apiGroup === '' ? 'core' : apiGroup}/${resource}`,
    );
}
