/**
 * deploy/rbac.yaml and deploy/rbac-adoption.yaml read with the `yaml` package, and each request
 * matched against their rules as the simulated API server's RBAC authorizer matches it
 * (simulator/kubernetes-rbac), so tests can tell whether the ClusterRoles allow what the adapter
 * sent.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { RecordedRequest } from '../../../simulator/api-server/index.ts';
import { type RequestInfo, requestInfo } from '../../../simulator/api-server/request-info.ts';
import { ruleAllows } from '../../../simulator/kubernetes-rbac/policy-rule.ts';

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

/** The attributes kube-apiserver gives the request (simulator/api-server/request-info.ts). */
function infoOf(request: Pick<RecordedRequest, 'method' | 'path' | 'query'>): RequestInfo {
  const info = requestInfo(request.method, request.path, new URLSearchParams(request.query));
  if (!info.isResourceRequest) throw new Error(`not a resource path: ${request.path}`);
  return info;
}

export function attributesOf(
  request: Pick<RecordedRequest, 'method' | 'path' | 'query'>,
): RequestAttributes {
  const { apiGroup, resource, subresource, verb } = infoOf(request);
  return { apiGroup, resource: subresource === '' ? resource : `${resource}/${subresource}`, verb };
}

/** Requests no rule allows, as `verb group/resource` lines. */
export function uncovered(
  rules: readonly PolicyRule[],
  requests: readonly Pick<RecordedRequest, 'method' | 'path' | 'query'>[],
): string[] {
  return requests
    .filter((request) => !rules.some((rule) => ruleAllows(rule, infoOf(request))))
    .map(attributesOf)
    .map(
      ({ verb, apiGroup, resource }) =>
        `${verb} ${apiGroup === '' ? 'core' : apiGroup}/${resource}`,
    );
}
