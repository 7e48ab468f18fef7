/**
 * IAM policy evaluation for identity-based policies in one account (IAM User Guide, "Policy
 * evaluation logic"): a request is denied outright when any statement denies it, allowed when
 * some statement allows it, and otherwise denied by default.
 *
 * Why a small evaluator of our own rather than a package: `@cloud-copilot/iam-simulate` is
 * AGPL-3.0, which this Apache-2.0 project cannot ship; `pbac` (MIT) looks request context up by
 * dotted paths, so the tag keys Nodesmith's conditions name (`aws:RequestTag/nodesmith.io/cluster`,
 * `kubernetes.io/cluster/…`) would be read as nested objects, and it brings lodash and a schema
 * validator for a grammar this file covers in full. The grammar is the template's: statements
 * with `Action`/`NotAction` (case-insensitive, with wildcards), `Resource`/`NotResource` (ARNs
 * matched component by component), and the conditions of condition-operators.ts. Policy
 * variables (`${aws:username}`) are not expanded: no policy Nodesmith runs under has one.
 */
import { conditionHolds, type RequestContext } from './condition-operators.ts';
import { listOf, type PolicyDocument, type PolicyStatement } from './policy-document.ts';
import { arnMatches, globMatches } from './wildcards.ts';

/** One request as IAM authorizes it: an action on one resource, with its context. */
export interface AuthorizationRequest {
  /** `service:Action`, as in a policy: `ec2:RunInstances`. */
  readonly action: string;
  /** The resource's ARN, or `*` for actions that name none. */
  readonly resource: string;
  readonly context: RequestContext;
}

export type Decision =
  | { readonly effect: 'allow'; readonly statement: PolicyStatement }
  | { readonly effect: 'explicit-deny'; readonly statement: PolicyStatement }
  | { readonly effect: 'implicit-deny' };

function actionMatches(statement: PolicyStatement, action: string): boolean {
  const matches = (patterns: readonly string[]) =>
    patterns.some((pattern) => globMatches(pattern, action, true));
  if (statement.NotAction !== undefined) return !matches(listOf(statement.NotAction));
  return matches(listOf(statement.Action));
}

function resourceMatches(statement: PolicyStatement, resource: string): boolean {
  const matches = (patterns: readonly string[]) =>
    patterns.some((pattern) => arnMatches(pattern, resource));
  if (statement.NotResource !== undefined) return !matches(listOf(statement.NotResource));
  return matches(listOf(statement.Resource));
}

function applies(statement: PolicyStatement, request: AuthorizationRequest): boolean {
  return (
    resourceMatches(statement, request.resource) &&
    conditionHolds(statement.Condition, request.context)
  );
}

export function statementsOf(policies: readonly PolicyDocument[]): readonly PolicyStatement[] {
  return policies.flatMap((policy) => listOf(policy.Statement));
}

/**
 * The statements of a role's policies that name an action, per action: a role's policies do
 * not change during a run and its functions call a few dozen actions, each thousands of times,
 * so matching every statement's actions again on every call was the simulator's own cost.
 */
const statementsByAction = new WeakMap<
  readonly PolicyDocument[],
  Map<string, readonly PolicyStatement[]>
>();

function statementsFor(
  policies: readonly PolicyDocument[],
  action: string,
): readonly PolicyStatement[] {
  let byAction = statementsByAction.get(policies);
  if (byAction === undefined) {
    byAction = new Map();
    statementsByAction.set(policies, byAction);
  }
  let statements = byAction.get(action);
  if (statements === undefined) {
    statements = statementsOf(policies).filter((statement) => actionMatches(statement, action));
    byAction.set(action, statements);
  }
  return statements;
}

export function evaluatePolicies(
  policies: readonly PolicyDocument[],
  request: AuthorizationRequest,
): Decision {
  const applying = statementsFor(policies, request.action).filter((statement) =>
    applies(statement, request),
  );
  const deny = applying.find((statement) => statement.Effect === 'Deny');
  if (deny !== undefined) return { effect: 'explicit-deny', statement: deny };
  const allow = applying.find((statement) => statement.Effect === 'Allow');
  if (allow !== undefined) return { effect: 'allow', statement: allow };
  return { effect: 'implicit-deny' };
}
