/**
 * Nodesmith's API as a deployed stack serves it, on a local port: API Gateway's IAM check (the
 * SigV4 signature recomputed with the caller's known secret; 403 when it differs, as API Gateway
 * answers), then the api function, invoked with the HTTP API event API Gateway would send.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { readBody } from '../../functions/adapters/http/read-body.ts';
import type { ApiHandler } from '../../functions/handlers/api/handler.ts';
import { lambdaContext } from '../../simulator/run/lambda-events.ts';

export interface Caller {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
}

export interface SignedApiServer {
  readonly url: string;
  /** Requests that reached the function, as `METHOD /path`. */
  readonly served: string[];
  close(): Promise<void>;
}

/** 20261125T090000Z → the Date it names. */
function signingDate(amzDate: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (m === null) return new Date(Number.NaN);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

async function signatureHolds(
  request: IncomingMessage,
  body: string,
  caller: Caller,
  port: number,
) {
  const authorization = request.headers.authorization ?? '';
  const signed = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  if (signed.length === 0) return false;
  const headers = Object.fromEntries(signed.map((h) => [h, String(request.headers[h] ?? '')]));
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
  const expected = await new SignatureV4({
    service: 'execute-api',
    region: caller.region,
    credentials: { accessKeyId: caller.accessKeyId, secretAccessKey: caller.secretAccessKey },
    sha256: Sha256,
  }).sign(
    new HttpRequest({
      method: request.method ?? 'GET',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port,
      path: url.pathname,
      headers,
      ...(body === '' ? {} : { body }),
    }),
    { signingDate: signingDate(String(request.headers['x-amz-date'])) },
  );
  return expected.headers.authorization === authorization;
}

function eventOf(request: IncomingMessage, body: string): APIGatewayProxyEventV2 {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const method = request.method ?? 'GET';
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.join(',') : String(v),
    ]),
  );
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    headers,
    pathParameters: { proxy: path.replace(/^\/v1\//, '') },
    requestContext: {
      accountId: '111122223333',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: 'local',
      routeKey: 'ANY /v1/{proxy+}',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body === '' ? {} : { body, isBase64Encoded: false }),
  } as APIGatewayProxyEventV2;
}

export async function startSignedApiServer(
  handler: ApiHandler,
  caller: Caller,
): Promise<SignedApiServer> {
  const served: string[] = [];
  let port = 0;
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (!(await signatureHolds(request, body, caller, port))) {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Forbidden' }));
      return;
    }
    served.push(`${request.method} ${request.url}`);
    const reply = await handler(eventOf(request, body), lambdaContext('api'));
    response.writeHead(reply.statusCode ?? 200, reply.headers as Record<string, string>);
    response.end(reply.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
