/**
 * The event an HTTP API hands a Lambda proxy integration, in the route's payload format (2.0,
 * or 1.0 as REST APIs send it), and how it reads the function's answer back into an HTTP
 * response (Amazon API Gateway Developer Guide, "Create AWS Lambda proxy integrations for HTTP
 * APIs").
 */
import type { MatchedRoute } from './http-api-routes.ts';
import type { ReceivedRequest } from './sigv4-signature.ts';

export interface ApiContext {
  readonly accountId: string;
  readonly apiId: string;
  readonly requestId: string;
  /** Epoch milliseconds on the simulated clock. */
  readonly now: number;
  readonly sourceIp: string;
  /** The IAM caller of an `AWS_IAM` route. */
  readonly iam?: { readonly accessKey: string; readonly userArn: string };
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** `27/Nov/2026:09:00:00 +0000`, as `requestContext.time` holds it. */
function requestTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${clock} +0000`;
}

/** Text bodies are passed as they are; anything else base64-encoded, as API Gateway does. */
function isText(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  return /^(text\/|application\/(json|xml|x-www-form-urlencoded|[^;]*\+(json|xml)))/.test(
    contentType,
  );
}

function bodyOf(request: ReceivedRequest) {
  if (request.body === '') return { isBase64Encoded: false };
  if (isText(request.headers['content-type']))
    return { body: request.body, isBase64Encoded: false };
  return { body: Buffer.from(request.body).toString('base64'), isBase64Encoded: true };
}

function queryParameters(query: URLSearchParams): Record<string, string> | undefined {
  const keys = [...new Set(query.keys())];
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((k) => [k, query.getAll(k).join(',')]));
}

function lastValues(query: URLSearchParams): Record<string, string> | undefined {
  const keys = [...new Set(query.keys())];
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((k) => [k, query.getAll(k).at(-1) ?? '']));
}

function identityOf(context: ApiContext) {
  const iam = context.iam;
  if (iam === undefined) return undefined;
  return {
    iam: {
      accessKey: iam.accessKey,
      accountId: context.accountId,
      callerId: iam.userArn.split('/').at(-1) ?? '',
      cognitoIdentity: null,
      principalOrgId: null,
      userArn: iam.userArn,
      userId: iam.userArn.split('/').at(-1) ?? '',
    },
  };
}

export function payloadV2(request: ReceivedRequest, matched: MatchedRoute, context: ApiContext) {
  const { routeKey } = matched.route;
  const cookies = request.headers.cookie?.split('; ');
  const queryStringParameters = queryParameters(request.query);
  const authorizer = identityOf(context);
  const host = request.headers.host ?? '';
  return {
    version: '2.0',
    routeKey,
    rawPath: request.path,
    rawQueryString: request.query.toString(),
    ...(cookies === undefined ? {} : { cookies }),
    headers: { ...request.headers },
    ...(queryStringParameters === undefined ? {} : { queryStringParameters }),
    requestContext: {
      accountId: context.accountId,
      apiId: context.apiId,
      ...(authorizer === undefined ? {} : { authorizer }),
      domainName: host,
      domainPrefix: host.split('.')[0] ?? '',
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: context.sourceIp,
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId: context.requestId,
      routeKey,
      stage: '$default',
      time: requestTime(context.now),
      timeEpoch: context.now,
    },
    ...(Object.keys(matched.pathParameters).length === 0
      ? {}
      : { pathParameters: matched.pathParameters }),
    ...bodyOf(request),
  };
}

export function payloadV1(request: ReceivedRequest, matched: MatchedRoute, context: ApiContext) {
  const [, resource = '$default'] = matched.route.routeKey.split(' ');
  const multiValueQuery = Object.fromEntries(
    [...new Set(request.query.keys())].map((k) => [k, request.query.getAll(k)]),
  );
  const authorizer = identityOf(context);
  return {
    version: '1.0',
    resource,
    path: request.path,
    httpMethod: request.method,
    headers: { ...request.headers },
    multiValueHeaders: Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k, v.split(',')]),
    ),
    // Format 1.0 keeps the last of a repeated parameter; 2.0 joins them with commas.
    queryStringParameters: lastValues(request.query) ?? null,
    multiValueQueryStringParameters:
      Object.keys(multiValueQuery).length === 0 ? null : multiValueQuery,
    requestContext: {
      accountId: context.accountId,
      apiId: context.apiId,
      ...(authorizer === undefined ? {} : { authorizer }),
      httpMethod: request.method,
      identity: {
        sourceIp: context.sourceIp,
        userAgent: request.headers['user-agent'] ?? '',
        accessKey: context.iam?.accessKey ?? null,
        userArn: context.iam?.userArn ?? null,
      },
      path: request.path,
      protocol: 'HTTP/1.1',
      requestId: context.requestId,
      requestTime: requestTime(context.now),
      requestTimeEpoch: context.now,
      resourcePath: resource,
      stage: '$default',
    },
    pathParameters:
      Object.keys(matched.pathParameters).length === 0 ? null : matched.pathParameters,
    stageVariables: null,
    body: bodyOf(request).body ?? null,
    isBase64Encoded: bodyOf(request).isBase64Encoded,
  };
}

interface ProxyResult {
  readonly statusCode?: number;
  readonly headers?: Record<string, string>;
  readonly multiValueHeaders?: Record<string, string[]>;
  readonly cookies?: string[];
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
}

/**
 * The function's answer as an HTTP response. In format 2.0 an answer without `statusCode` is
 * taken as a JSON body with status 200; in 1.0 it must have one.
 */
export function responseOf(result: unknown, payloadFormatVersion: string): HttpResponse {
  const proxy = (result ?? {}) as ProxyResult;
  if (typeof proxy !== 'object' || proxy.statusCode === undefined) {
    if (payloadFormatVersion !== '2.0') return internalError();
    const text = typeof result === 'string' ? result : JSON.stringify(result);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(text),
    };
  }
  const headers: Record<string, string | string[]> = {
    ...proxy.multiValueHeaders,
    ...proxy.headers,
  };
  if (proxy.cookies !== undefined) headers['set-cookie'] = proxy.cookies;
  const body = Buffer.from(proxy.body ?? '', proxy.isBase64Encoded === true ? 'base64' : 'utf8');
  return { status: proxy.statusCode, headers, body };
}

/** What API Gateway answers when the integration fails. */
export function internalError(): HttpResponse {
  return apiMessage(500, 'Internal Server Error');
}

/** One of API Gateway's own answers: `{"message": …}`. */
export function apiMessage(status: number, message: string): HttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ message })),
  };
}
