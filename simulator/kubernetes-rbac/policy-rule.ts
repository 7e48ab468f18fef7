/**
 * One rule of a Role or ClusterRole, and whether it allows a request, as Kubernetes' RBAC
 * authorizer matches them (kubernetes/kubernetes, plugin/pkg/auth/authorizer/rbac/rbac.go
 * `RuleAllows`, pkg/apis/rbac/v1/evaluation_helpers.go): a resource request needs the verb, the
 * API group, the resource — `pods/eviction` with its subresource, `*` for all, `*\/eviction` for
 * that subresource of any — and, when the rule names instances, the request's name among them;
 * a non-resource request needs the verb and its path, exactly or under a rule's `/prefix*`.
 */
import type { RequestAttributes } from '../api-server/request-attributes.ts';

/** `rbac.authorization.k8s.io/v1` PolicyRule. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** `*` or the value itself among the rule's. */
function matches(values: readonly string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

/** A rule without names allows every instance; a request without a name matches no named rule. */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (url) =>
      url === '*' ||
      url === path ||
      (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))),
  );
}

export function ruleAllows(rule: PolicyRule, request: Omit<RequestAttributes, 'user'>): boolean {
  if (!matches(rule.verbs, request.verb)) return false;
  if (!request.isResourceRequest) return nonResourceUrlMatches(rule, request.path);
  return (
    matches(rule.apiGroups, request.apiGroup) &&
    resourceMatches(rule, request.resource, request.subresource) &&
    resourceNameMatches(rule, request.name)
  );
}
