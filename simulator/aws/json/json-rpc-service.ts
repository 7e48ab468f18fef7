/**
 * The AWS JSON protocols (awsJson1_0, awsJson1_1) as SSM, Pricing, SQS, EventBridge and Secrets
 * Manager speak them: every request is a POST of `/` whose `X-Amz-Target: <Service>.<Operation>`
 * names the operation and whose JSON body is its input; the answer is the output as JSON, and an
 * error carries its shape's name in `__type` with `message`. A service that was query-protocol
 * before (SQS) also names the error's query code in `x-amzn-query-error`, which the SDK prefers.
 */
import {
  type AwsCaller,
  AwsError,
  type AwsHttpRequest,
  type AwsHttpResponse,
  type AwsOperation,
  type AwsService,
} from '../aws-service.ts';

/** An operation's implementation: the SDK's input in, the SDK's output out. */
export type JsonOperation = (
  input: Readonly<Record<string, unknown>>,
  caller: AwsCaller,
) => unknown | Promise<unknown>;

export interface JsonRpcServiceOptions {
  readonly signingName: string;
  readonly actionPrefix: string;
  /** The target's prefix: `AmazonSSM`, `AWSPriceListService`, `AmazonSQS`, `AWSEvents`, `secretsmanager`. */
  readonly target: string;
  /** `1.0` or `1.1`, the `application/x-amz-json-*` version. */
  readonly jsonVersion: '1.0' | '1.1';
  /** The shapes' namespace `__type` is qualified with: `com.amazonaws.sqs`. */
  readonly namespace?: string;
  readonly operations: Readonly<Record<string, JsonOperation>>;
  /** For query-compatible services: an error's query code and fault, `AWS.SimpleQueueService.NonExistentQueue`. */
  readonly queryErrors?: Readonly<Record<string, string>>;
}

function parseBody(body: string): Record<string, unknown> {
  if (body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Answered below as AWS answers a body it cannot read.
  }
  throw new AwsError('SerializationException', 'the request body is not a JSON object');
}

/** A JSON service as the endpoint sees it: decode, invoke and encode by the operations given. */
export function jsonRpcService(options: JsonRpcServiceOptions): AwsService {
  const contentType = `application/x-amz-json-${options.jsonVersion}`;
  const typeOf = (code: string) =>
    options.namespace === undefined ? code : `${options.namespace}#${code}`;
  return {
    signingName: options.signingName,
    actionPrefix: options.actionPrefix,
    decode(request: AwsHttpRequest): AwsOperation {
      const [prefix, name = ''] = (request.headers['x-amz-target'] ?? '').split('.');
      if (request.method !== 'POST' || prefix !== options.target) {
        throw new AwsError('UnknownOperationException', 'no operation is named by X-Amz-Target');
      }
      if (options.operations[name] === undefined) {
        throw new AwsError('UnknownOperationException', `${name} is not an operation here`);
      }
      return { name, input: parseBody(request.body) };
    },
    async invoke(operation: AwsOperation, caller: AwsCaller): Promise<unknown> {
      const implementation = options.operations[operation.name];
      if (implementation === undefined) {
        throw new AwsError(
          'UnknownOperationException',
          `${operation.name} is not an operation here`,
        );
      }
      return implementation(operation.input, caller);
    },
    encode(_operation: AwsOperation, output: unknown): AwsHttpResponse {
      return {
        status: 200,
        headers: { 'content-type': contentType },
        body: JSON.stringify(output ?? {}),
      };
    },
    encodeError(_operation: AwsOperation | undefined, error: AwsError): AwsHttpResponse {
      const queryError = options.queryErrors?.[error.code];
      const fault = error.status >= 500 ? 'Receiver' : 'Sender';
      return {
        status: error.status,
        headers: {
          'content-type': contentType,
          'x-amzn-errortype': error.code,
          ...(queryError === undefined ? {} : { 'x-amzn-query-error': `${queryError};${fault}` }),
        },
        body: JSON.stringify({ __type: typeOf(error.code), message: error.message }),
      };
    },
  };
}
