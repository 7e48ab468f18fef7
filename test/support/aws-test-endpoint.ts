/**
 * A stand-in for the simulated account's one endpoint while it is being written: an HTTP server
 * on 127.0.0.1 that tells the service from the SigV4 credential scope and runs the request through
 * the service's decode, invoke and encode steps, with no authorizer. The unchanged SDK clients
 * reach it through their `endpoint` setting.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AwsCaller,
  AwsError,
  type AwsHttpRequest,
  type AwsOperation,
  type AwsService,
} from '../../simulator/aws/aws-service.ts';

export const TEST_REGION = 'us-east-1';
export const TEST_CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' };

export interface AwsTestEndpoint {
  readonly url: string;
  /** What a client needs to reach it: `new SQSClient(endpoint.clientConfig)`. */
  readonly clientConfig: {
    endpoint: string;
    region: string;
    credentials: typeof TEST_CREDENTIALS;
    maxAttempts: number;
  };
  close(): Promise<void>;
}

/** `Credential=AKID/20261127/us-east-1/sqs/aws4_request` → key, region and signing name. */
function scopeOf(authorization: string): { key: string; region: string; service: string } {
  const scope = /Credential=([^/]+)\/[^/]+\/([^/]+)\/([^/]+)\/aws4_request/.exec(authorization);
  if (scope === null) throw new AwsError('MissingAuthenticationToken', 'the request is not signed');
  const [, key = '', region = '', service = ''] = scope;
  return { key, region, service };
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

async function answer(services: ReadonlyMap<string, AwsService>, request: AwsHttpRequest) {
  const scope = scopeOf(request.headers.authorization ?? '');
  const service = services.get(scope.service);
  if (service === undefined) throw new Error(`no service signs as ${scope.service}`);
  const caller: AwsCaller = { accessKeyId: scope.key, region: scope.region };
  let operation: AwsOperation | undefined;
  try {
    operation = service.decode(request);
    return service.encode(operation, await service.invoke(operation, caller));
  } catch (err) {
    if (!(err instanceof AwsError)) throw err;
    return service.encodeError(operation, err);
  }
}

export async function startAwsTestEndpoint(
  services: readonly AwsService[],
): Promise<AwsTestEndpoint> {
  const bySigningName = new Map(services.map((s) => [s.signingName, s]));
  const server: Server = createServer((message, response) => {
    readRequest(message)
      .then((request) => answer(bySigningName, request))
      .then(({ status, headers, body }) => response.writeHead(status, headers).end(body))
      .catch((err: Error) => response.writeHead(500).end(err.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientConfig: {
      endpoint: url,
      region: TEST_REGION,
      credentials: TEST_CREDENTIALS,
      maxAttempts: 1,
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The SDK keeps its sockets alive; closing waits for none of them.
        server.closeAllConnections();
      }),
  };
}
