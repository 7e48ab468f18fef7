/**
 * A service of the simulated account that speaks a query protocol (EC2, IAM, STS): it reads and
 * writes the wire through its QueryProtocol, and does only the operations itself.
 */
import type {
  AwsCaller,
  AwsError,
  AwsHttpRequest,
  AwsHttpResponse,
  AwsOperation,
  AwsService,
} from '../aws-service.ts';
import { QueryProtocol, type QueryProtocolOptions } from './query-protocol.ts';

export interface QueryServiceIdentity {
  readonly signingName: string;
  readonly actionPrefix: string;
}

export abstract class QueryService implements AwsService {
  readonly signingName: string;
  readonly actionPrefix: string;
  readonly #protocol: QueryProtocol;

  constructor(identity: QueryServiceIdentity, protocol: QueryProtocolOptions) {
    this.signingName = identity.signingName;
    this.actionPrefix = identity.actionPrefix;
    this.#protocol = new QueryProtocol(protocol);
  }

  abstract invoke(operation: AwsOperation, caller: AwsCaller): Promise<unknown>;

  decode(request: AwsHttpRequest): AwsOperation {
    return this.#protocol.decode(request);
  }

  encode(operation: AwsOperation, output: unknown): AwsHttpResponse {
    return this.#protocol.encode(operation, output);
  }

  encodeError(_operation: AwsOperation | undefined, error: AwsError): AwsHttpResponse {
    return this.#protocol.encodeError(error);
  }
}
