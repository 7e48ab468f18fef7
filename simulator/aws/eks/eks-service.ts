/**
 * EKS over its REST-JSON protocol: the operation is the method and path (`GET /clusters/{name}`
 * is DescribeCluster), the answer a JSON body, and an error names itself in `x-amzn-ErrorType`
 * with its HTTP status (404 for ResourceNotFoundException), its message in the body.
 */
import {
  AwsError,
  type AwsHttpRequest,
  type AwsHttpResponse,
  type AwsOperation,
  type AwsService,
} from '../aws-service.ts';
import type { SimulatedEks } from './simulated-eks.ts';

const DESCRIBE_CLUSTER = /^\/clusters\/([^/]+)$/;

function json(status: number, headers: Record<string, string>, body: unknown): AwsHttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function eksService(eks: SimulatedEks): AwsService {
  return {
    signingName: 'eks',
    actionPrefix: 'eks',
    decode(request: AwsHttpRequest): AwsOperation {
      const cluster = DESCRIBE_CLUSTER.exec(request.path);
      if (request.method === 'GET' && cluster !== null) {
        return { name: 'DescribeCluster', input: { name: decodeURIComponent(cluster[1] ?? '') } };
      }
      throw new AwsError(
        'UnknownOperationException',
        `${request.method} ${request.path} is not an operation here`,
        404,
      );
    },
    async invoke(operation: AwsOperation): Promise<unknown> {
      return { cluster: eks.describe(String(operation.input.name)) };
    },
    encode(_operation: AwsOperation, output: unknown): AwsHttpResponse {
      return json(200, {}, output);
    },
    encodeError(_operation: AwsOperation | undefined, error: AwsError): AwsHttpResponse {
      return json(error.status, { 'x-amzn-errortype': error.code }, { message: error.message });
    },
  };
}
