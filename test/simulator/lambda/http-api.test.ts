/**
 * The template's HTTP API served as API Gateway serves it: its routes read from the synthesized
 * template, IAM authorization checked on the SigV4 signature, the payload 2.0 event, the
 * function's answer sent back, the stage's throttling, and API Gateway's own answers when no
 * route, no signature or no function answers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HttpApi, startHttpApi } from '../../../simulator/lambda/http-api.ts';
import { type HttpApiRoute, httpApiRoutes } from '../../../simulator/lambda/http-api-routes.ts';
import { stageThrottling } from '../../../simulator/lambda/http-api-throttling.ts';
import { synthesizedForTests } from '../../support/synthesized-stack.ts';
import { signedFetch } from './support.ts';

const OPERATOR = {
  accessKeyId: 'AKIAOPERATOREXAMPLE1',
  secretAccessKey: 'operator-secret',
  arn: 'arn:aws:iam::111122223333:user/operator',
};
const NOW = Date.parse('2026-11-27T09:00:00.000Z');

let routes: HttpApiRoute[];
let api: HttpApi;
let invoked: { functionId: string; event: any }[];
let answer: (event: any) => Promise<unknown>;

/** A request signed as the nodesmith command line signs it, with the secret given. */
function signed(method: string, path: string, secretAccessKey: string, body?: string) {
  const key = { accessKeyId: OPERATOR.accessKeyId, secretAccessKey };
  return signedFetch(new URL(path, api.url), key, {
    method,
    ...(body === undefined ? {} : { body }),
  });
}

beforeAll(async () => {
  routes = httpApiRoutes(synthesizedForTests().template);
  api = await startHttpApi({
    routes,
    invoke: (functionId, event) => {
      invoked.push({ functionId, event });
      return answer(event);
    },
    callerOf: (key) => (key === OPERATOR.accessKeyId ? OPERATOR : undefined),
    accountId: '111122223333',
    apiId: 'a1b2c3d4e5',
    now: () => NOW,
  });
}, 180_000);

beforeEach(() => {
  invoked = [];
  answer = async () => ({
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: '[]',
  });
});

afterAll(async () => {
  await api?.close();
});

describe('the HTTP API as API Gateway serves it', () => {
  it('has the template’s routes: the admission wake open, the operator routes behind IAM', () => {
    // Assess
    const named = routes.map((r) => ({
      ...r,
      functionLogicalId: r.functionLogicalId.slice(0, -8),
    }));
    expect(named).toEqual([
      {
        routeKey: 'POST /v1/wake/{token}',
        authorizationType: 'NONE',
        functionLogicalId: 'WakeWebhook',
        payloadFormatVersion: '2.0',
      },
      {
        routeKey: 'ANY /v1/{proxy+}',
        authorizationType: 'AWS_IAM',
        functionLogicalId: 'Api',
        payloadFormatVersion: '2.0',
      },
    ]);
  });

  it('refuses an unsigned call, or one signed with the wrong secret, to an IAM route', async () => {
    // Act
    const unsigned = await fetch(`${api.url}/v1/nodepools`);
    const forged = await signed('GET', '/v1/nodepools', 'not-the-secret');
    // Assess
    for (const response of [unsigned, forged]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: 'Forbidden' });
    }
    expect(invoked).toEqual([]);
  });

  it('invokes the route’s function with the 2.0 event of a signed call, and sends its answer', async () => {
    // Prepare
    answer = async () => ({
      statusCode: 201,
      headers: { 'content-type': 'application/json', etag: '"7"' },
      body: '{"created":true}',
    });
    const body = '{"kind":"NodePool"}';
    // Act
    const response = await signed(
      'PUT',
      '/v1/nodepools/default?dryRun=true',
      OPERATOR.secretAccessKey,
      body,
    );
    // Assess
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"7"');
    expect(await response.text()).toBe('{"created":true}');
    expect(invoked.map((i) => i.functionId.slice(0, -8))).toEqual(['Api']);
    expect(invoked[0]?.event).toMatchObject({
      version: '2.0',
      routeKey: 'ANY /v1/{proxy+}',
      rawPath: '/v1/nodepools/default',
      rawQueryString: 'dryRun=true',
      queryStringParameters: { dryRun: 'true' },
      pathParameters: { proxy: 'nodepools/default' },
      headers: { 'content-type': 'application/json' },
      requestContext: {
        accountId: '111122223333',
        apiId: 'a1b2c3d4e5',
        authorizer: { iam: { accessKey: OPERATOR.accessKeyId, userArn: OPERATOR.arn } },
        http: { method: 'PUT', path: '/v1/nodepools/default', protocol: 'HTTP/1.1' },
        routeKey: 'ANY /v1/{proxy+}',
        stage: '$default',
        time: '27/Nov/2026:09:00:00 +0000',
        timeEpoch: NOW,
      },
      body,
      isBase64Encoded: false,
    });
  });

  it('passes the admission wake’s path token on unsigned, to the relay alone', async () => {
    // Act
    const post = await fetch(`${api.url}/v1/wake/token-0`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"kind":"AdmissionReview"}',
    });
    const get = await fetch(`${api.url}/v1/wake/token-0`);
    // Assess
    expect(post.status).toBe(200);
    expect(get.status).toBe(403);
    expect(invoked.map((i) => i.functionId.slice(0, -8))).toEqual(['WakeWebhook']);
    expect(invoked[0]?.event.pathParameters).toEqual({ token: 'token-0' });
    expect(invoked[0]?.event.requestContext.authorizer).toBeUndefined();
  });

  it('answers 404 where no route matches and 500 when the function fails', async () => {
    // Prepare
    answer = async () => {
      throw new Error('Task timed out after 29.00 seconds');
    };
    // Act
    const nowhere = await fetch(`${api.url}/healthz`);
    const failing = await fetch(`${api.url}/v1/wake/token-0`, { method: 'POST', body: '{}' });
    // Assess
    expect([nowhere.status, await nowhere.json()]).toEqual([404, { message: 'Not Found' }]);
    expect([failing.status, await failing.json()]).toEqual([
      500,
      { message: 'Internal Server Error' },
    ]);
  });
});

describe('the stage’s throttling', () => {
  it('reads the wake route’s own limits and the stage’s default from the template', () => {
    // Act
    const throttling = stageThrottling(synthesizedForTests().template);
    // Assess
    expect(throttling.byDefault).toEqual({ burst: 100, rate: 50 });
    expect([...throttling.routes]).toEqual([['POST /v1/wake/{token}', { burst: 5, rate: 10 }]]);
  });

  it('answers 429 past the wake route’s burst without invoking the relay, and refills at its rate', async () => {
    // Prepare
    let now = NOW;
    const throttled = await startHttpApi({
      routes,
      invoke: (functionId, event) => {
        invoked.push({ functionId, event });
        return answer(event);
      },
      callerOf: () => undefined,
      accountId: '111122223333',
      apiId: 'a1b2c3d4e5',
      now: () => now,
      throttling: stageThrottling(synthesizedForTests().template),
    });
    const wake = () => fetch(`${throttled.url}/v1/wake/token-0`, { method: 'POST', body: '{}' });
    const statuses = async (n: number) => {
      const answered: number[] = [];
      for (let i = 0; i < n; i++) answered.push((await wake()).status);
      return answered;
    };
    // Act
    const burst = await statuses(6);
    // 10 a second: two tokens back 200 ms later (the bucket never holds more than the burst).
    now += 200;
    const later = await statuses(3);
    const operator = await fetch(`${throttled.url}/v1/nodepools`);
    await throttled.close();
    // Assess
    expect(burst).toEqual([...Array(5).fill(200), 429]);
    expect(later).toEqual([200, 200, 429]);
    expect(invoked).toHaveLength(7);
    // The operator's routes draw on the stage's default bucket, not the wake route's.
    expect(operator.status).toBe(403);
  });
});

describe('a route of payload format 1.0', () => {
  it('gets the REST API’s event and must answer with a status code', async () => {
    // Prepare
    const events: any[] = [];
    let reply: unknown = { statusCode: 204, multiValueHeaders: { 'x-pools': ['a', 'b'] } };
    const v1 = await startHttpApi({
      routes: [
        {
          routeKey: 'GET /v1/pools/{name}',
          authorizationType: 'NONE',
          functionLogicalId: 'Api',
          payloadFormatVersion: '1.0',
        },
      ],
      invoke: async (_, event) => {
        events.push(event);
        return reply;
      },
      callerOf: () => undefined,
      accountId: '111122223333',
      apiId: 'a1b2c3d4e5',
      now: () => NOW,
    });
    // Act
    const answered = await fetch(`${v1.url}/v1/pools/default?watch=true&watch=false`);
    reply = { body: 'no status' };
    const malformed = await fetch(`${v1.url}/v1/pools/default`);
    await v1.close();
    // Assess
    expect(answered.status).toBe(204);
    expect(answered.headers.get('x-pools')).toBe('a, b');
    expect(malformed.status).toBe(500);
    expect(events[0]).toMatchObject({
      version: '1.0',
      resource: '/v1/pools/{name}',
      path: '/v1/pools/default',
      httpMethod: 'GET',
      queryStringParameters: { watch: 'false' },
      multiValueQueryStringParameters: { watch: ['true', 'false'] },
      pathParameters: { name: 'default' },
      requestContext: {
        resourcePath: '/v1/pools/{name}',
        requestTimeEpoch: NOW,
        stage: '$default',
      },
      body: null,
      isBase64Encoded: false,
    });
  });
});
