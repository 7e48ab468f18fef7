/**
 * The authorizer of the simulated account (simulator/aws/aws-service.ts): every call a function
 * makes is evaluated against its role's policies, request by request as authorization.ts lists
 * them, and the first one not allowed is answered as the service answers a denial. Calls signed
 * with no role's key are the world's own (setup, tests) and pass. `deny` takes actions away from
 * every role for a run (`--deny ec2:CreateFleet`), to show that enforcement is real: a denied
 * action is allowed by no statement, as if the roles had never been granted it.
 */
import type { Authorizer, AwsCaller, AwsOperation, AwsService } from '../aws/aws-service.ts';
import { authorizationsOf } from './authorization.ts';
import { AuthorizationDenied } from './authorization-denied.ts';
import type { AuthorizationLookups } from './authorization-lookups.ts';
import type { Authorization } from './authorization-request.ts';
import { requestContextOf } from './condition-operators.ts';
import type { PolicyDocument } from './policy-document.ts';
import { evaluatePolicies } from './policy-evaluation.ts';
import type { SimulatedAccount } from './simulated-account.ts';
import { globMatches } from './wildcards.ts';

export interface AuthorizerOptions {
  readonly account: Pick<SimulatedAccount, 'partition' | 'accountId'>;
  /** Actions no role is allowed for the run, `ec2:CreateFleet`; wildcards as in a policy. */
  readonly deny?: readonly string[];
}

/** The session a Lambda function's calls come from: its role, with the function as session name. */
function sessionArn(caller: AwsCaller, roleArn: string, partition: string, account: string) {
  const roleName = roleArn.slice(roleArn.lastIndexOf('/') + 1);
  const session = caller.functionName ?? caller.accessKeyId;
  return `arn:${partition}:sts::${account}:assumed-role/${roleName}/${session}`;
}

export function makeAuthorizer(
  policiesByRole: ReadonlyMap<string, readonly PolicyDocument[]>,
  lookups: AuthorizationLookups,
  options: AuthorizerOptions,
): Authorizer {
  const { partition, accountId } = options.account;
  const removed = (action: string) =>
    (options.deny ?? []).some((pattern) => globMatches(pattern, action, true));
  const refusal = (policies: readonly PolicyDocument[], request: Authorization) => {
    const decision = evaluatePolicies(policies, {
      ...request,
      context: requestContextOf(request.context),
    });
    if (decision.effect === 'allow') return removed(request.action) ? 'implicit-deny' : undefined;
    return decision.effect;
  };
  return (caller: AwsCaller, service: AwsService, operation: AwsOperation) => {
    const roleArn = caller.roleArn;
    if (roleArn === undefined) return undefined;
    const place = { partition, accountId, region: caller.region };
    const policies = policiesByRole.get(roleArn) ?? [];
    for (const request of authorizationsOf(
      service.actionPrefix,
      operation,
      place,
      { roleArn },
      lookups,
    )) {
      const refused = refusal(policies, request);
      if (refused === undefined) continue;
      const principal = sessionArn(caller, roleArn, partition, accountId);
      return new AuthorizationDenied(
        service.actionPrefix,
        principal,
        request,
        refused === 'explicit-deny',
      );
    }
    return undefined;
  };
}
