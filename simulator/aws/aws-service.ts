/**
 * The simulated AWS account's contract (docs/design.md §9): every service answers HTTP on
 * 127.0.0.1 in its own wire protocol, reached by the unchanged SDK clients through the SDK's
 * endpoint settings (`AWS_ENDPOINT_URL_<SERVICE>`). One endpoint receives every request, tells the
 * service from the SigV4 credential scope and the caller from its access key, and runs each
 * request through the same steps: the service decodes the operation into the SDK's input shape,
 * the authorizer evaluates the caller's role against it, the service invokes it and encodes the
 * answer or the error as AWS would.
 */

/** One HTTP request to the endpoint, as received. */
export interface AwsHttpRequest {
  readonly method: string;
  /** The path, without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface AwsHttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Who signed the request: the access key of its SigV4 credential scope, and what it maps to. */
export interface AwsCaller {
  readonly accessKeyId: string;
  /** The region of the credential scope. */
  readonly region: string;
  /** The function whose process holds the key; absent for the world's own calls (tests, setup). */
  readonly functionName?: string;
  /** The role the key belongs to, as an ARN; absent when the key is no role's. */
  readonly roleArn?: string;
}

/** An operation decoded from the wire: its name and its input in the SDK's shape. */
export interface AwsOperation {
  /** The operation's name as in the IAM action and the SDK command: `CreateFleet`, `GetParameter`. */
  readonly name: string;
  /** The input as the SDK's `<Name>CommandInput` holds it. */
  readonly input: Readonly<Record<string, unknown>>;
}

/** An error as AWS answers it: its code, message and HTTP status. */
export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = code;
  }
}

export interface AwsService {
  /** The SigV4 signing name of the credential scope: `ec2`, `iam`, `ssm`, `pricing`, `sqs`, … */
  readonly signingName: string;
  /** The prefix of its IAM actions: `ec2`, `iam`, `ssm`, `pricing`, `sqs`, `events`, … */
  readonly actionPrefix: string;
  /** Reads the operation from the wire; throws `AwsError` for what AWS would refuse unread. */
  decode(request: AwsHttpRequest): AwsOperation;
  /** Does the operation; returns the output in the SDK's `<Name>CommandOutput` shape. */
  invoke(operation: AwsOperation, caller: AwsCaller): Promise<unknown>;
  /** Writes the output as the service's protocol does. */
  encode(operation: AwsOperation, output: unknown): AwsHttpResponse;
  /** Writes the error as the service's protocol does; the operation is absent when decoding failed. */
  encodeError(operation: AwsOperation | undefined, error: AwsError): AwsHttpResponse;
}

/**
 * Decides whether the caller may do the operation, as IAM evaluates its role's policies;
 * returns the error AWS answers a denial with (`UnauthorizedOperation`, `AccessDenied`,
 * `AccessDeniedException`), or undefined when allowed.
 */
export type Authorizer = (
  caller: AwsCaller,
  service: AwsService,
  operation: AwsOperation,
) => AwsError | undefined;

/** A message an SQS queue hands out, with what Lambda's event source mapping puts in its record. */
export interface ReceivedMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  readonly md5OfBody: string;
  /** `ApproximateReceiveCount`, `SentTimestamp`, `SenderId`, `ApproximateFirstReceiveTimestamp`. */
  readonly attributes: Readonly<Record<string, string>>;
}

/**
 * A queue as Lambda's event source mapping polls it: what it receives stays invisible for the
 * visibility timeout, what it deletes is gone, and what it leaves comes back, until the queue's
 * redrive policy moves it to the dead-letter queue after `maxReceiveCount` receives.
 */
export interface PolledQueue {
  readonly arn: string;
  receive(maxMessages: number): readonly ReceivedMessage[];
  delete(receiptHandle: string): void;
}
