/**
 * A denial as each service answers it: EC2's `UnauthorizedOperation` with its encoded
 * authorization failure message, IAM's, STS's and SQS's `AccessDenied`, and the JSON services'
 * `AccessDeniedException`, each with the sentence AWS writes ("User: <session ARN> is not
 * authorized to perform: <action> on resource: <ARN> because no identity-based policy allows
 * the <action> action", or "with an explicit deny in an identity-based policy"). The encoded
 * message holds what `sts:DecodeAuthorizationMessage` would reveal: the decision and its context.
 */
import { AwsError } from '../aws/aws-service.ts';
import type { Authorization } from './authorization-request.ts';

const DENIALS: Readonly<Record<string, { readonly code: string; readonly status: number }>> = {
  ec2: { code: 'UnauthorizedOperation', status: 403 },
  iam: { code: 'AccessDenied', status: 403 },
  sts: { code: 'AccessDenied', status: 403 },
  sqs: { code: 'AccessDenied', status: 403 },
  eks: { code: 'AccessDeniedException', status: 403 },
};
const JSON_DENIAL = { code: 'AccessDeniedException', status: 400 };

export class AuthorizationDenied extends AwsError {
  constructor(
    /** The action of the service called: a denial names it, whichever action was refused. */
    actionPrefix: string,
    readonly principalArn: string,
    readonly request: Authorization,
    readonly explicit: boolean,
  ) {
    const { code, status } = DENIALS[actionPrefix] ?? JSON_DENIAL;
    const sentence = denialSentence(principalArn, request, explicit);
    const message =
      actionPrefix === 'ec2'
        ? `You are not authorized to perform this operation. ${sentence}. Encoded authorization failure message: ${encoded(principalArn, request, explicit)}`
        : sentence;
    super(code, message, status);
  }
}

function denialSentence(principal: string, { action, resource }: Authorization, explicit: boolean) {
  const on = resource === '*' ? '' : ` on resource: ${resource}`;
  const why = explicit
    ? 'with an explicit deny in an identity-based policy'
    : `because no identity-based policy allows the ${action} action`;
  return `User: ${principal} is not authorized to perform: ${action}${on} ${why}`;
}

function encoded(
  principal: string,
  { action, resource, context }: Authorization,
  explicit: boolean,
) {
  const conditions = Object.entries(context).map(([key, values]) => ({
    key,
    values: typeof values === 'string' ? [values] : values,
  }));
  const decision = {
    allowed: false,
    explicitDeny: explicit,
    context: { principal: { arn: principal }, action, resource, conditions: { items: conditions } },
  };
  return Buffer.from(JSON.stringify(decision)).toString('base64url');
}
