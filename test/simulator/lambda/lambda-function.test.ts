/**
 * A function run as Lambda runs it, each container a process of its own talking to the Runtime
 * API: its environment, warm containers, its timeout, its reserved concurrency, errors as Lambda
 * reports them, and the simulated clock in the child.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AwsError } from '../../../simulator/aws/aws-service.ts';
import type { FunctionDefinition } from '../../../simulator/lambda/function-definition.ts';
import { FunctionError } from '../../../simulator/lambda/function-error.ts';
import { LambdaFunction } from '../../../simulator/lambda/lambda-function.ts';
import { aFunction, ROLE_KEYS } from './support.ts';

const WORLD_START = Date.parse('2026-11-27T09:00:00.000Z');
let worldNow = WORLD_START;
const started: LambdaFunction[] = [];

function run(definition: FunctionDefinition): LambdaFunction {
  const fn = new LambdaFunction(definition, {
    region: 'us-east-1',
    credentials: ROLE_KEYS,
    endpointUrl: 'http://127.0.0.1:4566',
    now: () => worldNow,
  });
  started.push(fn);
  return fn;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((fn) => fn.close()));
  worldNow = WORLD_START;
});

describe('a function run as Lambda runs it', () => {
  it('starts with exactly the template’s variables and what Lambda sets', async () => {
    // Prepare
    const fn = run(aFunction('export const handler = async () => ({ ...process.env });'));
    // Act
    const environment = (await fn.invoke({})) as Record<string, string>;
    // Assess
    const runtimeApi = environment.AWS_LAMBDA_RUNTIME_API ?? '';
    const logStream = environment.AWS_LAMBDA_LOG_STREAM_NAME ?? '';
    expect(runtimeApi).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(logStream).toMatch(/^2026\/11\/27\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(environment).toEqual({
      CLUSTER_NAME: 'shop',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: 'Nodesmith-shop-Fixture',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/Nodesmith-shop-Fixture',
      AWS_LAMBDA_LOG_STREAM_NAME: logStream,
      AWS_LAMBDA_LOG_FORMAT: 'JSON',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_RUNTIME_API: runtimeApi,
      LAMBDA_TASK_ROOT: fn.definition.codeDirectory,
      _HANDLER: 'index.handler',
      _X_AMZN_TRACE_ID: expect.stringMatching(/^Root=1-/),
      TZ: ':UTC',
      LANG: 'en_US.UTF-8',
      PATH: '/var/lang/bin:/usr/local/bin:/usr/bin/:/bin:/opt/bin',
      AWS_ACCESS_KEY_ID: ROLE_KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: ROLE_KEYS.secretAccessKey,
      AWS_SESSION_TOKEN: ROLE_KEYS.sessionToken,
      AWS_ENDPOINT_URL: 'http://127.0.0.1:4566',
    });
  });

  it('keeps a warm container’s module state across invocations, and its heap at the memory size', async () => {
    // Prepare
    const fn = run(
      aFunction(
        `import v8 from 'node:v8';
        let count = 0;
        export const handler = async () => ({
          count: ++count,
          heapMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20,
        });`,
        { memorySize: 512 },
      ),
    );
    // Act
    const first = (await fn.invoke({})) as { count: number; heapMb: number };
    const second = (await fn.invoke({})) as { count: number };
    // Assess
    expect([first.count, second.count]).toEqual([1, 2]);
    expect(fn.tally).toMatchObject({ invocations: 2, coldStarts: 1 });
    expect(first.heapMb).toBeGreaterThanOrEqual(512);
    expect(first.heapMb).toBeLessThan(600);
  });

  it('counts an invocation as ended once it has returned or failed, not while it runs', async () => {
    // Prepare
    const fn = run(
      aFunction(
        `export const handler = async (event) => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          if (event.fail) throw new Error('refused');
          return {};
        };`,
      ),
    );
    // Act
    const running = fn.invoke({});
    await vi.waitUntil(() => fn.tally.invocations === 1);
    const whileRunning = fn.tally.ended;
    await running;
    await expect(fn.invoke({ fail: true })).rejects.toThrow('refused');
    // Assess
    expect(whileRunning).toBe(0);
    expect(fn.tally).toMatchObject({ invocations: 2, ended: 2, errors: 1 });
  });

  it('gives the child the world’s simulated time, and the deadline on the same clock', async () => {
    // Prepare
    const fn = run(
      aFunction(`export const handler = async (event, context) => ({
        now: Date.now(),
        date: new Date().toISOString(),
        remaining: context.getRemainingTimeInMillis(),
      });`),
    );
    // Act
    const atStart = (await fn.invoke({})) as { now: number; date: string; remaining: number };
    worldNow += 3_600_000;
    const anHourOn = (await fn.invoke({})) as { now: number };
    // Assess
    expect(atStart.now - WORLD_START).toBeGreaterThanOrEqual(0);
    expect(atStart.now - WORLD_START).toBeLessThan(2_000);
    expect(atStart.date.slice(0, 16)).toBe('2026-11-27T09:00');
    expect(atStart.remaining).toBeGreaterThan(8_000);
    expect(atStart.remaining).toBeLessThanOrEqual(10_000);
    expect(anHourOn.now - WORLD_START - 3_600_000).toBeLessThan(2_000);
  });

  it('kills an invocation that outlives its timeout and reports it as Lambda does', async () => {
    // Prepare
    const fn = run(
      aFunction('export const handler = () => new Promise(() => setInterval(() => {}, 1000));', {
        timeoutSeconds: 1,
      }),
    );
    // Act
    const failure = await fn.invoke({}).catch((err: unknown) => err);
    // Assess
    expect(failure).toBeInstanceOf(FunctionError);
    expect((failure as FunctionError).toPayload()).toEqual({
      errorType: 'Sandbox.Timedout',
      errorMessage: expect.stringMatching(
        /^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/,
      ),
      trace: [],
    });
    expect(fn.containers).toBe(0);
  });

  it('reports the handler’s error and keeps the container warm', async () => {
    // Prepare
    const fn = run(
      aFunction(`let calls = 0;
        export const handler = async () => {
          calls += 1;
          if (calls === 1) throw new RangeError('no capacity');
          return calls;
        };`),
    );
    // Act
    const failure = (await fn.invoke({}).catch((err: unknown) => err)) as FunctionError;
    const next = await fn.invoke({});
    // Assess
    expect([failure.errorType, failure.errorMessage]).toEqual(['RangeError', 'no capacity']);
    expect(failure.trace[0]).toBe('RangeError: no capacity');
    expect(next).toBe(2);
  });

  it('fails every invocation of a function whose module cannot start, with its init error', async () => {
    // Prepare
    const fn = run(aFunction("throw new TypeError('CLUSTER_NAME is not set');"));
    // Act
    const failure = (await fn.invoke({}).catch((err: unknown) => err)) as FunctionError;
    // Assess
    expect([failure.errorType, failure.errorMessage]).toEqual([
      'TypeError',
      'CLUSTER_NAME is not set',
    ]);
  });

  it('runs no more containers than its reserved concurrency, throttling the rest', async () => {
    // Prepare
    const fn = run(
      aFunction(
        'export const handler = (event) => new Promise((r) => setTimeout(() => r(event.n), 300));',
        { reservedConcurrency: 2 },
      ),
    );
    // Act
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => fn.invoke({ n })));
    // Assess
    const throttled = outcomes.find((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect((throttled as PromiseRejectedResult).reason).toEqual(
      new AwsError('TooManyRequestsException', 'Rate Exceeded.', 429),
    );
    expect(fn.containers).toBe(2);
  });
});
