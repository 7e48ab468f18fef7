/**
 * Nodesmith's API as a deployed stack serves it, on a local port: the simulated HTTP API's
 * `ANY /v1/{proxy+}` route with IAM authorization (the SigV4 signature recomputed with the
 * caller's known secret; 403 when it differs, as API Gateway answers), then the api handler, in
 * process, invoked with the HTTP API event API Gateway would send.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApiHandler } from '../../functions/handlers/api/handler.ts';
import { startHttpApi } from '../../simulator/lambda/http-api.ts';
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

export async function startSignedApiServer(
  handler: ApiHandler,
  caller: Caller,
): Promise<SignedApiServer> {
  const served: string[] = [];
  const api = await startHttpApi({
    routes: [
      {
        routeKey: 'ANY /v1/{proxy+}',
        authorizationType: 'AWS_IAM',
        functionLogicalId: 'Api',
        payloadFormatVersion: '2.0',
      },
    ],
    invoke: (_, event) => {
      const { rawPath, rawQueryString, requestContext } = event as APIGatewayProxyEventV2;
      served.push(
        `${requestContext.http.method} ${rawPath}${rawQueryString ? `?${rawQueryString}` : ''}`,
      );
      return handler(event as APIGatewayProxyEventV2, lambdaContext('api'));
    },
    callerOf: (accessKeyId) =>
      accessKeyId === caller.accessKeyId
        ? {
            secretAccessKey: caller.secretAccessKey,
            arn: 'arn:aws:iam::111122223333:user/operator',
          }
        : undefined,
    accountId: '111122223333',
    apiId: 'local',
    now: () => Date.now(),
  });
  return { ...api, served };
}
