/**
 * Kubernetes' RBAC authorizer (kubernetes/kubernetes, plugin/pkg/auth/authorizer/rbac/rbac.go
 * `Authorize`) over a fixed set of RBAC objects: a request is allowed when any rule that applies
 * to its user in its namespace allows it — rules only add, none denies — and otherwise gets no
 * opinion, which with RBAC the only authorizer is a 403. The reason names the rule's source when
 * allowed, and roles that bindings name but that do not exist when not.
 */
import type { AuthorizationDecision } from '../api-server/access-control.ts';
import type { RequestAttributes } from '../api-server/request-attributes.ts';
import { ruleAllows } from './policy-rule.ts';
import type { RbacObject } from './rbac-objects.ts';
import { rulesFor } from './rule-resolver.ts';

/** `utilerrors.NewAggregate(...).Error()`: one error as it is, more in brackets. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}

export class RbacAuthorizer {
  readonly #objects: readonly RbacObject[];

  constructor(objects: readonly RbacObject[]) {
    this.#objects = objects;
  }

  authorize(attributes: RequestAttributes): AuthorizationDecision {
    const { rules, errors } = rulesFor(this.#objects, attributes.user, attributes.namespace);
    const allowing = rules.find(({ rule }) => ruleAllows(rule, attributes));
    if (allowing !== undefined)
      return { allowed: true, reason: `RBAC: allowed by ${allowing.source}` };
    return { allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${aggregate(errors)}` };
  }
}
