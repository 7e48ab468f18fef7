/**
 * DynamoDB Local as the account's DynamoDB answers the functions: each request passed on as it
 * came, each answer passed back with its `Date` on the simulated clock the functions run on, as
 * the account's other services date theirs (endpoint.ts). DynamoDB Local dates its answers by the
 * machine's clock, months from the functions' own; the SDK takes an error so dated for its own
 * clock's skew, corrects it and sends the call again, up to its limit of four attempts with
 * backoff between them. Every failed condition — a wake window found open, a lease found held —
 * then cost four calls and 60 to 130 ms, where on AWS it costs one call.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DatedDynamoDb {
  /** `http://127.0.0.1:<port>`, for the functions' `AWS_ENDPOINT_URL_DYNAMODB`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startDatedDynamoDb(options: {
  /** DynamoDB Local's own endpoint. */
  readonly target: string;
  /** The functions' clock, epoch milliseconds. */
  readonly now: () => number;
}): Promise<DatedDynamoDb> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
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
    incoming.pipe(passed);
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
