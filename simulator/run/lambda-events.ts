/**
 * The Lambda events and context the simulated deployment hands Nodesmith's handlers, shaped as
 * API Gateway, SQS and the Lambda runtime deliver them.
 */
import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import type { QueuedWake } from '../simulated-work-queue.ts';

/** The API Gateway (HTTP API, payload 2.0) event of a kube-apiserver POST to a route. */
function apiServerPost(
  route: { path: string; key: string; pathParameters?: Record<string, string> },
  headers: Record<string, string>,
  body: string,
): APIGatewayProxyEventV2 {
  const userAgent = 'kube-apiserver-admission';
  return {
    version: '2.0',
    routeKey: route.key,
    rawPath: route.path,
    rawQueryString: '',
    headers: { ...headers, 'content-type': 'application/json', 'user-agent': userAgent },
    requestContext: {
      accountId: '111122223333',
      apiId: 'simulated',
      domainName: 'simulated.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'simulated',
      http: {
        method: 'POST',
        path: route.path,
        protocol: 'HTTP/1.1',
        sourceIp: '10.0.0.10',
        userAgent,
      },
      requestId: 'simulated',
      routeKey: route.key,
      stage: '$default',
      time: '05/Jan/2026:09:00:00 +0000',
      timeEpoch: 1767603600000,
    },
    ...(route.pathParameters === undefined ? {} : { pathParameters: route.pathParameters }),
    body,
    isBase64Encoded: false,
  };
}

/** The event of an audit webhook POST to `/v1/audit`, with its bearer token. */
export function webhookEvent(body: string, token: string): APIGatewayProxyEventV2 {
  const route = { path: '/v1/audit', key: 'POST /v1/audit' };
  return apiServerPost(route, { authorization: `Bearer ${token}` }, body);
}

/** The event of an AdmissionReview POST to `/v1/wake/{token}`. */
export function admissionEvent(body: string, token: string): APIGatewayProxyEventV2 {
  const route = {
    path: `/v1/wake/${token}`,
    key: 'POST /v1/wake/{token}',
    pathParameters: { token },
  };
  return apiServerPost(route, {}, body);
}

/** The SQS event of one batch of wakes, as Lambda's event source mapping delivers it. */
export function sqsEvent(batch: readonly QueuedWake[]): SQSEvent {
  return {
    Records: batch.map((q) => ({
      messageId: `wake-${q.id}`,
      receiptHandle: `receipt-${q.id}`,
      body: JSON.stringify(q.wake),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(q.dueAt),
        SenderId: 'simulated',
        ApproximateFirstReceiveTimestamp: String(q.dueAt),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:nodesmith-work',
      awsRegion: 'us-east-1',
    })),
  };
}

/**
 * The parts of a Lambda context the handlers read; `remainingMs` is what is left of the
 * invocation when the handler starts.
 */
export function lambdaContext(requestId: string, remainingMs = 60_000) {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'nodesmith-simulated',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:nodesmith-simulated',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/nodesmith-simulated',
    logStreamName: 'simulated',
    getRemainingTimeInMillis: () => remainingMs,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The SQS event of EventBridge events on the interruption queue (the body is the whole event). */
export function eventBridgeSqsEvent(bodies: readonly string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `interruption-${i}`,
      receiptHandle: `receipt-interruption-${i}`,
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '0',
        SenderId: 'AIDAIENQZJOLO23YVJ4VO',
        ApproximateFirstReceiveTimestamp: '0',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:nodesmith-interruption',
      awsRegion: 'us-east-1',
    })),
  };
}
