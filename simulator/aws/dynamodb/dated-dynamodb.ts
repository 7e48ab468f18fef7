/**
 * DynamoDB Local as the account's DynamoDB answers the functions: each request passed on as it
 * came, each answer passed back with its `Date` on the simulated clock the functions run on, as
 * the account's other services date theirs (endpoint.ts). DynamoDB Local dates its answers by the
 * machine's clock, months from the functions' own; the SDK takes an error so dated for its own
 * clock's skew, corrects it and sends the call again, up to its limit of four attempts with
 * backoff between them. Every failed condition — a wake window found open, a lease found held —
 * then cost four calls and 60 to 130 ms, where on AWS it costs one call.
 *
 * Given the conflicts to keep (transaction-conflicts.ts), it also refuses a write that meets a
 * transaction in progress on its item, as DynamoDB does and DynamoDB Local does not.
 */
import { randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../../functions/adapters/http/read-body.ts';
import type { Refusal, TransactionConflicts } from './transaction-conflicts.ts';

export interface DatedDynamoDb {
  /** `http://127.0.0.1:<port>`, for the functions' `AWS_ENDPOINT_URL_DYNAMODB`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface DatedDynamoDbOptions {
  /** DynamoDB Local's own endpoint. */
  readonly target: string;
  /** The functions' clock, epoch milliseconds. */
  readonly now: () => number;
  /** DynamoDB's transaction conflicts, kept in front of DynamoDB Local; none when absent. */
  readonly conflicts?: TransactionConflicts;
}

/** DynamoDB's own answer in place of the call's, dated on the functions' clock. */
function refuse(outgoing: ServerResponse, { status, body }: Refusal, nowMs: number): void {
  outgoing.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': randomUUID(),
    date: new Date(nowMs).toUTCString(),
  });
  outgoing.end(body);
}

type Pass = (
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  body: string | undefined,
  release: () => void,
) => void;

/**
 * Passes a call on to DynamoDB Local (its body read already, or still to come) and its answer
 * back, dated; `release` once the answer has gone.
 */
function passingTo(options: DatedDynamoDbOptions, agent: Agent): Pass {
  const target = new URL(options.target);
  return (incoming, outgoing, body, release) => {
    outgoing.once('close', release);
    const passed = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (answer) => {
        const date = new Date(options.now()).toUTCString();
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, date });
        answer.pipe(outgoing);
      },
    );
    passed.on('error', (error) => outgoing.destroy(error));
    if (body === undefined) incoming.pipe(passed);
    else passed.end(body);
  };
}

export async function startDatedDynamoDb(options: DatedDynamoDbOptions): Promise<DatedDynamoDb> {
  const agent = new Agent({ keepAlive: true });
  const pass = passingTo(options, agent);
  const { conflicts } = options;
  const server = createServer((incoming, outgoing) => {
    const operation = incoming.headers['x-amz-target'];
    if (
      conflicts === undefined ||
      typeof operation !== 'string' ||
      !conflicts.concerns(operation)
    ) {
      pass(incoming, outgoing, undefined, () => undefined);
      return;
    }
    readBody(incoming).then(
      (body) => {
        const admission = conflicts.admit(operation, body);
        if ('refusal' in admission) refuse(outgoing, admission.refusal, options.now());
        else pass(incoming, outgoing, body, admission.release);
      },
      (error: unknown) => outgoing.destroy(error as Error),
    );
  });
  // The SDK keeps its connections; so does DynamoDB.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
