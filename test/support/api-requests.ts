/** API Gateway HTTP API (payload 2.0) requests on the IAM-authorized `ANY /v1/{proxy+}` route. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

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
