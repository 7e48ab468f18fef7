/**
 * STS as the simulated account serves it over the AWS query protocol: GetCallerIdentity, which
 * answers who signed the request. The EKS token a function makes is a presigned
 * GetCallerIdentity URL, so the simulated API server can learn a token's role by calling it.
 */
import { GetCallerIdentity$ } from '@aws-sdk/client-sts';
import type {
  AwsCaller,
  AwsError,
  AwsHttpRequest,
  AwsHttpResponse,
  AwsOperation,
  AwsService,
} from '../aws-service.ts';
import { QueryProtocol } from '../query/query-protocol.ts';

/** `arn:aws:iam::123:role/path/name` → `name`. */
function roleName(roleArn: string): string {
  return roleArn.slice(roleArn.lastIndexOf('/') + 1);
}

export class StsService implements AwsService {
  readonly signingName = 'sts';
  readonly actionPrefix = 'sts';
  readonly #protocol = new QueryProtocol({
    operations: { GetCallerIdentity: GetCallerIdentity$ },
    xmlNamespace: 'https://sts.amazonaws.com/doc/2011-06-15/',
    ec2: false,
  });
  readonly #accountId: string;

  constructor(options: { readonly accountId: string }) {
    this.#accountId = options.accountId;
  }

  decode(request: AwsHttpRequest): AwsOperation {
    return this.#protocol.decode(request);
  }

  /** A function's caller is its role's session, named after the function as Lambda names it. */
  async invoke(_operation: AwsOperation, caller: AwsCaller): Promise<unknown> {
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
      Arn: `arn:aws:sts::${this.#accountId}:assumed-role/${role}/${session}`,
    };
  }

  encode(operation: AwsOperation, output: unknown): AwsHttpResponse {
    return this.#protocol.encode(operation, output);
  }

  encodeError(_operation: AwsOperation | undefined, error: AwsError): AwsHttpResponse {
    return this.#protocol.encodeError(error);
  }
}
