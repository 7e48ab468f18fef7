/**
 * The simulated AWS account's one HTTP front (docs/design.md §9): every SDK client of every
 * function is pointed here. The SigV4 credential scope names the service (`…/us-east-1/ec2/
 * aws4_request`) and the access key the caller; each request is decoded by its service,
 * authorized, invoked and encoded as that service answers. The signature itself is not checked:
 * the keys are the simulation's own, and what IAM enforces is the caller's role, not its secret.
 * Every call and every denial is recorded, per function and IAM action.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationDenied } from '../iam/authorization-denied.ts';
import {
  type Authorizer,
  type AwsCaller,
  AwsError,
  type AwsHttpRequest,
  type AwsHttpResponse,
  type AwsService,
} from './aws-service.ts';

/** Who holds an access key: a function's process and its role, or the world itself. */
export interface AwsCredentialOwner {
  readonly functionName?: string;
  readonly roleArn?: string;
}

export interface AwsEndpointOptions {
  readonly services: readonly AwsService[];
  /** Access key → who holds it; any other key is refused as AWS refuses an unknown key. */
  readonly credentials: Readonly<Record<string, AwsCredentialOwner>>;
  /** Allows everything when absent. */
  readonly authorizer?: Authorizer;
  /**
   * The callers' clock, epoch milliseconds: every answer's `Date` is read from it. The SDK
   * compares that header with its own clock and, four minutes or more apart, corrects its offset
   * and retries the call, which for a caller on the simulated clock and a `Date` by the wall
   * clock would be every error, twice over. The machine's clock when absent.
   */
  readonly now?: () => number;
}

/** One call as received: the function that made it (absent for the world's) and its IAM action. */
export interface AwsCall {
  readonly functionName?: string;
  /** `ec2:CreateFleet`. */
  readonly action: string;
}

export interface AwsDenial {
  readonly function?: string;
  readonly action: string;
  readonly resource?: string;
}

export interface AwsEndpoint {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every call decoded, allowed or not, in the order received. */
  readonly calls: readonly AwsCall[];
  readonly denied: readonly AwsDenial[];
  close(): Promise<void>;
}

/** Calls per IAM action of each function that made any; the world's own calls are left out. */
export function callCountsByFunction(
  calls: readonly AwsCall[],
): Record<string, Record<string, number>> {
  const names = [...new Set(calls.flatMap((call) => call.functionName ?? []))].sort();
  return Object.fromEntries(names.map((name) => [name, callCounts(calls, name)]));
}

/** Calls per IAM action, of one function or of all. */
export function callCounts(
  calls: readonly AwsCall[],
  functionName?: string,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) {
    if (functionName !== undefined && call.functionName !== functionName) continue;
    counts[call.action] = (counts[call.action] ?? 0) + 1;
  }
  return counts;
}

interface CredentialScope {
  readonly accessKeyId: string;
  readonly region: string;
  readonly service: string;
}

const SCOPE = /Credential=([^/,\s]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

/** From the `Authorization` header, or a presigned URL's `X-Amz-Credential`. */
export function credentialScope(request: AwsHttpRequest): CredentialScope | undefined {
  const presigned = request.query.get('X-Amz-Credential');
  const text =
    presigned === null ? (request.headers.authorization ?? '') : `Credential=${presigned}`;
  const match = SCOPE.exec(text);
  if (match === null) return undefined;
  const [, accessKeyId = '', region = '', service = ''] = match;
  return { accessKeyId, region, service };
}

/** How each protocol refuses a key it does not know (EC2 `AuthFailure`, IAM and STS, the rest). */
function unknownKey(service: AwsService): AwsError {
  const message = 'The security token included in the request is invalid.';
  if (service.signingName === 'ec2') {
    return new AwsError(
      'AuthFailure',
      'AWS was not able to validate the provided access credentials',
      401,
    );
  }
  if (service.signingName === 'iam' || service.signingName === 'sts') {
    return new AwsError('InvalidClientTokenId', message, 403);
  }
  return new AwsError('UnrecognizedClientException', message, 400);
}

/** With no service to speak for, the answer API Gateway-fronted services give an unsigned request. */
const MISSING_AUTHENTICATION: AwsHttpResponse = {
  status: 403,
  headers: {
    'content-type': 'application/json',
    'x-amzn-errortype': 'MissingAuthenticationTokenException',
  },
  body: JSON.stringify({ message: 'Missing Authentication Token' }),
};

/**
 * The denial as recorded: the action and resource IAM refused when the authorizer names them
 * (a launch may be refused `iam:PassRole` on the node role), else the call's own action.
 */
function denial(caller: AwsCaller, action: string, refusal: AwsError): AwsDenial {
  const who = caller.functionName === undefined ? {} : { function: caller.functionName };
  if (!(refusal instanceof AuthorizationDenied)) return { ...who, action };
  return { ...who, action: refusal.request.action, resource: refusal.request.resource };
}

class Endpoint {
  readonly calls: AwsCall[] = [];
  readonly denied: AwsDenial[] = [];
  readonly #options: AwsEndpointOptions;
  readonly #services: ReadonlyMap<string, AwsService>;

  constructor(options: AwsEndpointOptions) {
    this.#options = options;
    this.#services = new Map(options.services.map((s) => [s.signingName, s]));
  }

  async answer(request: AwsHttpRequest): Promise<AwsHttpResponse> {
    const scope = credentialScope(request);
    const service = scope === undefined ? undefined : this.#services.get(scope.service);
    if (scope === undefined || service === undefined) return MISSING_AUTHENTICATION;
    const owner = this.#options.credentials[scope.accessKeyId];
    if (owner === undefined) return service.encodeError(undefined, unknownKey(service));
    const caller: AwsCaller = { accessKeyId: scope.accessKeyId, region: scope.region, ...owner };
    return this.#run(service, caller, request);
  }

  async #run(
    service: AwsService,
    caller: AwsCaller,
    request: AwsHttpRequest,
  ): Promise<AwsHttpResponse> {
    let operation: ReturnType<AwsService['decode']> | undefined;
    try {
      operation = service.decode(request);
      const action = `${service.actionPrefix}:${operation.name}`;
      this.calls.push({ ...this.#who(caller), action });
      const refusal = this.#options.authorizer?.(caller, service, operation);
      if (refusal !== undefined) {
        this.denied.push(denial(caller, action, refusal));
        return service.encodeError(operation, refusal);
      }
      return service.encode(operation, await service.invoke(operation, caller));
    } catch (err) {
      if (err instanceof AwsError) return service.encodeError(operation, err);
      const code = service.signingName === 'ec2' ? 'InternalError' : 'InternalFailure';
      return service.encodeError(operation, new AwsError(code, String(err), 500));
    }
  }

  #who(caller: AwsCaller): Pick<AwsCall, 'functionName'> {
    return caller.functionName === undefined ? {} : { functionName: caller.functionName };
  }
}

async function readRequest(message: IncomingMessage): Promise<AwsHttpRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const url = new URL(message.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return {
    method: message.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

function send(response: ServerResponse, answer: AwsHttpResponse, now: () => number): void {
  response.writeHead(answer.status, {
    ...answer.headers,
    date: new Date(now()).toUTCString(),
    'content-length': Buffer.byteLength(answer.body),
  });
  response.end(answer.body);
}

/** How long an idle keep-alive connection stays open. */
const IDLE_CONNECTION_MS = 120_000;

export async function startAwsEndpoint(options: AwsEndpointOptions): Promise<AwsEndpoint> {
  const endpoint = new Endpoint(options);
  const now = options.now ?? Date.now;
  const server = createServer((message, response) => {
    readRequest(message)
      .then((request) => endpoint.answer(request))
      .then(
        (answer) => send(response, answer, now),
        (err: unknown) => send(response, { status: 500, headers: {}, body: String(err) }, now),
      );
  });
  // Node.js closes a connection idle for 5 s, and a client sending on it as it closes reads
  // ECONNRESET; AWS's endpoints keep an idle connection far longer than a pass waits.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: endpoint.calls,
    denied: endpoint.denied,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
      }),
  };
}
