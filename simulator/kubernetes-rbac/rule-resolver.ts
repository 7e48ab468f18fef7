/**
 * Which rules apply to a user in a namespace, as Kubernetes' default rule resolver finds them
 * (kubernetes/kubernetes, pkg/registry/rbac/validation/rule.go `VisitRulesFor`): every
 * ClusterRoleBinding whose subjects include the user grants its ClusterRole everywhere; in a
 * namespace, every RoleBinding there whose subjects include the user grants its Role (of that
 * namespace) or ClusterRole there. A binding to a role that does not exist grants nothing and
 * is reported.
 */
import type { UserInfo } from '../api-server/request-attributes.ts';
import type { PolicyRule } from './policy-rule.ts';
import type { RbacBinding, RbacObject, RbacRole, RoleRef, Subject } from './rbac-objects.ts';

/** A rule, and the binding and role it comes from: `ClusterRoleBinding "nodesmith" of ClusterRole "nodesmith"`. */
export interface SourcedRule {
  readonly source: string;
  readonly rule: PolicyRule;
}

export interface ResolvedRules {
  readonly rules: readonly SourcedRule[];
  /** Bindings whose role is missing, as `clusterrole.rbac.authorization.k8s.io "x" not found`. */
  readonly errors: readonly string[];
}

/** `system:serviceaccount:<namespace>:<name>`, the user a service account's token names. */
function serviceAccountUser(subject: Subject, bindingNamespace: string): string | undefined {
  const namespace = subject.namespace || bindingNamespace;
  return namespace === '' ? undefined : `system:serviceaccount:${namespace}:${subject.name}`;
}

function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount':
      return serviceAccountUser(subject, bindingNamespace) === user.name;
    default:
      return false;
  }
}

function roleOf(objects: readonly RbacObject[], ref: RoleRef, namespace: string) {
  return objects.find(
    (o): o is RbacRole =>
      o.kind === ref.kind &&
      o.metadata.name === ref.name &&
      (o.kind === 'ClusterRole' || (o.metadata.namespace ?? 'default') === namespace),
  );
}

function describe(binding: RbacBinding, namespace: string): string {
  const where = binding.kind === 'RoleBinding' ? `${namespace}/` : '';
  const ref = binding.roleRef;
  return `${binding.kind} "${where}${binding.metadata.name}" of ${ref.kind} "${ref.name}"`;
}

/** The bindings that count for a request in `namespace` ('' for cluster-wide requests). */
function bindingsFor(objects: readonly RbacObject[], namespace: string) {
  return objects.filter(
    (o): o is RbacBinding =>
      o.kind === 'ClusterRoleBinding' ||
      (o.kind === 'RoleBinding' &&
        namespace !== '' &&
        (o.metadata.namespace ?? 'default') === namespace),
  );
}

export function rulesFor(
  objects: readonly RbacObject[],
  user: UserInfo,
  namespace: string,
): ResolvedRules {
  const rules: SourcedRule[] = [];
  const errors: string[] = [];
  for (const binding of bindingsFor(objects, namespace)) {
    const bindingNamespace = binding.kind === 'RoleBinding' ? namespace : '';
    if (!(binding.subjects ?? []).some((s) => appliesTo(user, s, bindingNamespace))) continue;
    const role = roleOf(objects, binding.roleRef, namespace);
    if (role === undefined) {
      const kind = binding.roleRef.kind.toLowerCase();
      errors.push(
        `${kind}.rbac.authorization.k8s.io ${JSON.stringify(binding.roleRef.name)} not found`,
      );
      continue;
    }
    const source = describe(binding, namespace);
    for (const rule of role.rules ?? []) rules.push({ source, rule });
  }
  return { rules, errors };
}
