/**
 * An AWS endpoint that is down: it answers every request 503 `ServiceUnavailableException`, as
 * the JSON and REST-JSON protocols send it, and keeps who called what from each request's SigV4
 * credential scope. The deployed functions' tests point a function at it to see its process sign
 * with its own keys and fail as its composition root fails without AWS.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SignedCall {
  readonly accessKeyId: string;
  readonly region: string;
  /** The signing name of the credential scope: `eks`, `dynamodb`, `sqs`, … */
  readonly service: string;
  readonly method: string;
  readonly path: string;
}

export interface UnavailableEndpoint {
  readonly url: string;
  readonly calls: SignedCall[];
  close(): Promise<void>;
}

const SCOPE = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

export async function startUnavailableEndpoint(): Promise<UnavailableEndpoint> {
  const calls: SignedCall[] = [];
  const server = createServer((request, response) => {
    const [, accessKeyId = '', region = '', service = ''] =
      SCOPE.exec(request.headers.authorization ?? '') ?? [];
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    calls.push({ accessKeyId, region, service, method: request.method ?? '', path });
    request.resume();
    response.writeHead(503, {
      'content-type': 'application/json',
      'x-amzn-errortype': 'ServiceUnavailableException',
    });
    response.end(JSON.stringify({ message: 'Service Unavailable' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
