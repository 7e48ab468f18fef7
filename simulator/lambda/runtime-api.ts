/**
 * The Lambda Runtime API one container's runtime talks to (AWS Lambda Developer Guide, "Using
 * the Lambda runtime API for custom runtimes"), on its own port of 127.0.0.1: the runtime's
 * `GET /2018-06-01/runtime/invocation/next` waits until an invocation is dispatched and gets its
 * event with the `Lambda-Runtime-*` headers; its `POST .../{id}/response` and `.../{id}/error`
 * settle that invocation; `POST .../init/error` tells that the function could not start.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../functions/adapters/http/read-body.ts';
import { FunctionError } from './function-error.ts';

/** When an invocation must end, stamped as the runtime takes it: its timeout starts then. */
export interface InvocationTiming {
  /** Epoch milliseconds on the simulated clock. */
  readonly deadlineMs: number;
  /** Simulated minus real epoch milliseconds when the runtime takes the invocation. */
  readonly clockOffsetMs: number;
}

export interface Invocation {
  readonly requestId: string;
  /** The event, as JSON. */
  readonly payload: string;
  readonly functionArn: string;
  /** Called once, as the runtime takes the invocation (after its Init phase, when cold). */
  readonly handedOver: () => InvocationTiming;
}

interface Pending {
  readonly resolve: (response: string) => void;
  readonly reject: (error: FunctionError) => void;
}

const PREFIX = '/2018-06-01/runtime';

export class RuntimeApi {
  readonly #server: Server;
  #next: ServerResponse | undefined;
  #queued: Invocation | undefined;
  readonly #pending = new Map<string, Pending>();
  #initError: FunctionError | undefined;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<RuntimeApi> {
    const server = createServer();
    const api = new RuntimeApi(server);
    server.on('request', (request, response) => void api.#serve(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  /** `host:port`, as `AWS_LAMBDA_RUNTIME_API` holds it. */
  get address(): string {
    return `127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Why the function could not start, once its runtime has said so. */
  get initError(): FunctionError | undefined {
    return this.#initError;
  }

  /** Hands the invocation to the runtime; settles with what the runtime posts for it. */
  dispatch(invocation: Invocation): Promise<string> {
    const settled = new Promise<string>((resolve, reject) => {
      this.#pending.set(invocation.requestId, { resolve, reject });
    });
    this.#queued = invocation;
    this.#handOver();
    return settled;
  }

  /** Fails every invocation not yet settled (the process is gone) with the error given. */
  abandon(errorOf: (requestId: string) => FunctionError): void {
    for (const [requestId, pending] of this.#pending) pending.reject(errorOf(requestId));
    this.#pending.clear();
    this.#queued = undefined;
  }

  close(): Promise<void> {
    this.#next?.destroy();
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #handOver(): void {
    const [response, invocation] = [this.#next, this.#queued];
    if (response === undefined || invocation === undefined) return;
    this.#next = undefined;
    this.#queued = undefined;
    const { deadlineMs, clockOffsetMs } = invocation.handedOver();
    response.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': invocation.requestId,
      'lambda-runtime-deadline-ms': String(deadlineMs),
      'lambda-runtime-invoked-function-arn': invocation.functionArn,
      'lambda-runtime-trace-id': `Root=1-${invocation.requestId.slice(0, 8)}-${invocation.requestId.replaceAll('-', '').slice(0, 24)};Sampled=0`,
      'nodesmith-clock-offset-ms': String(clockOffsetMs),
    });
    response.end(invocation.payload);
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = (request.url ?? '').replace(PREFIX, '');
    if (request.method === 'GET' && path === '/invocation/next') {
      this.#next = response;
      this.#handOver();
      return;
    }
    const settle = /^\/invocation\/([^/]+)\/(response|error)$/.exec(path);
    if (request.method === 'POST' && settle !== null) {
      this.#settle(settle[1] ?? '', settle[2] === 'response', body);
      return accepted(response);
    }
    if (request.method === 'POST' && path === '/init/error') {
      this.#initError = FunctionError.fromBody(body, 'Runtime.InitError');
      const error = this.#initError;
      this.abandon(() => error);
      return accepted(response);
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ errorType: 'InvalidRequestID', errorMessage: path }));
  }

  #settle(requestId: string, succeeded: boolean, body: string): void {
    const pending = this.#pending.get(requestId);
    if (pending === undefined) return;
    this.#pending.delete(requestId);
    if (succeeded) pending.resolve(body);
    else pending.reject(FunctionError.fromBody(body, 'Error'));
  }
}

function accepted(response: ServerResponse): void {
  response.writeHead(202, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ status: 'OK' }));
}
