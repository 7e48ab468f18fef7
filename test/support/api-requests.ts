/**
 * API Gateway HTTP API (payload 2.0) requests on the IAM-authorized `ANY /v1/{proxy+}` route, and
 * the API function to send them to.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { makeApiHandler } from '../../functions/handlers/api/handler.ts';
import type { ApiDependencies } from '../../functions/handlers/api/routes.ts';
import type { Wake } from '../../functions/ports/wake.ts';

export interface ApiRequestOptions {
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly isBase64Encoded?: boolean;
}

export function apiRequest(
  method: string,
  path: string,
  options: ApiRequestOptions = {},
): APIGatewayProxyEventV2 {
  const { body, headers = {}, isBase64Encoded = false } = options;
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/yaml', ...headers },
    pathParameters: { proxy: path.replace(/^\/v1\//, '') },
    requestContext: {
      accountId: '111122223333',
      apiId: 'a1b2c3d4e5',
      authorizer: {
        iam: {
          accessKey: 'ASIAEXAMPLE',
          accountId: '111122223333',
          callerId: 'AROAEXAMPLE:platform-engineer',
          cognitoIdentity: null,
          principalOrgId: null,
          userArn: 'arn:aws:sts::111122223333:assumed-role/PlatformAdmin/platform-engineer',
          userId: 'AROAEXAMPLE:platform-engineer',
        },
      },
      domainName: 'a1b2c3d4e5.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'a1b2c3d4e5',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'nodesmith' },
      requestId: 'request-1',
      routeKey: 'ANY /v1/{proxy+}',
      stage: '$default',
      time: '25/Nov/2026:09:00:00 +0000',
      timeEpoch: Date.parse('2026-11-25T09:00:00Z'),
    },
    ...(body === undefined ? {} : { body, isBase64Encoded }),
  } as APIGatewayProxyEventV2;
}

/**
 * The API function over `state`, at a fixed time, with a waker that keeps what it is asked and,
 * unless `dryRun` is given, no cluster to plan against.
 */
export function anApiHandler(
  state: ApiDependencies['state'],
  options: Partial<Omit<ApiDependencies, 'state' | 'waker'>> = {},
) {
  const wakes: Wake[] = [];
  const handler = makeApiHandler({
    state,
    waker: { wake: async (wake) => void wakes.push(wake) },
    now: () => new Date('2026-11-25T09:00:00Z'),
    dryRun: () => Promise.reject(new Error('no cluster in this test')),
    ...options,
  });
  return { handler, wakes };
}
