/**
 * STS as the simulated account serves it over the AWS query protocol: GetCallerIdentity, which
 * answers who signed the request. The EKS token a function makes is a presigned
 * GetCallerIdentity URL, so the simulated API server can learn a token's role by calling it.
 */
import { GetCallerIdentity$ } from '@aws-sdk/client-sts';
import type { AwsCaller, AwsOperation } from '../aws-service.ts';
import { QueryService } from '../query/query-service.ts';

/** `arn:aws:iam::123:role/path/name` → `name`. */
function roleName(roleArn: string): string {
  return roleArn.slice(roleArn.lastIndexOf('/') + 1);
}

/** The ARN of a role's session: `arn:aws:sts::123:assumed-role/name/session`, the path left out. */
export function assumedRoleArn(accountId: string, roleArn: string, session: string): string {
  return `arn:aws:sts::${accountId}:assumed-role/${roleName(roleArn)}/${session}`;
}

export class StsService extends QueryService {
  readonly #accountId: string;

  constructor(options: { readonly accountId: string }) {
    super(
      { signingName: 'sts', actionPrefix: 'sts' },
      {
        operations: { GetCallerIdentity: GetCallerIdentity$ },
        xmlNamespace: 'https://sts.amazonaws.com/doc/2011-06-15/',
        ec2: false,
      },
    );
    this.#accountId = options.accountId;
  }

  /** A function's caller is its role's session, named after the function as Lambda names it. */
  override async invoke(_operation: AwsOperation, caller: AwsCaller): Promise<unknown> {
    if (caller.roleArn === undefined) {
      return {
        UserId: caller.accessKeyId,
        Account: this.#accountId,
        Arn: `arn:aws:iam::${this.#accountId}:user/simulation`,
      };
    }
    const role = roleName(caller.roleArn);
    const session = caller.functionName ?? caller.accessKeyId;
    return {
      UserId: `AROA${role
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 17)}:${session}`,
      Account: this.#accountId,
      Arn: assumedRoleArn(this.#accountId, caller.roleArn, session),
    };
  }
}
