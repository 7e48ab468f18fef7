/**
 * The requests IAM authorizes for one operation, in the order AWS would find them: each action on
 * each resource, with the operation's own context keys and those every request carries
 * (`aws:RequestedRegion`, `aws:PrincipalArn`, `aws:PrincipalAccount`). An operation the tables
 * of ec2-, iam- and service-authorization.ts do not list (Describe*, `pricing:GetProducts`)
 * names no resource: its action is authorized on `*`.
 */
import type { AwsOperation } from '../aws/aws-service.ts';
import type { AuthorizationLookups } from './authorization-lookups.ts';
import type { Authorization, CallPlace } from './authorization-request.ts';
import { EC2_AUTHORIZATIONS } from './ec2-authorization.ts';
import { IAM_AUTHORIZATIONS } from './iam-authorization.ts';
import { SERVICE_AUTHORIZATIONS } from './service-authorization.ts';

const BY_PREFIX: Readonly<Record<string, (typeof SERVICE_AUTHORIZATIONS)[string]>> = {
  ...SERVICE_AUTHORIZATIONS,
  ec2: EC2_AUTHORIZATIONS,
  iam: IAM_AUTHORIZATIONS,
};

export interface Principal {
  readonly roleArn: string;
}

export function authorizationsOf(
  actionPrefix: string,
  operation: AwsOperation,
  place: CallPlace,
  principal: Principal,
  lookups: AuthorizationLookups,
): Authorization[] {
  const authorize = BY_PREFIX[actionPrefix]?.[operation.name];
  const own =
    authorize === undefined
      ? [{ action: `${actionPrefix}:${operation.name}`, resource: '*', context: {} }]
      : authorize(operation.input as never, place, lookups);
  const global = {
    'aws:RequestedRegion': place.region,
    'aws:PrincipalArn': principal.roleArn,
    'aws:PrincipalAccount': place.accountId,
  };
  return own.map((request) => ({ ...request, context: { ...global, ...request.context } }));
}
