/**
 * Nodesmith's functions started from their bundles in the synthesized cloud assembly, each in
 * its own process with the environment its template gives it, as Lambda runs them, against an
 * AWS endpoint that answers 503: the controller asks EKS for its cluster with its own role's keys
 * and fails the invocation as its composition root does when EKS cannot answer; the interruption
 * function answers the batches its event source mapping delivers from the interruption queue;
 * the operator API is reached through its IAM route only when signed; the audit log relay reads
 * what the log group's subscription sends it. Synthesis is shared by every test file (cached by
 * its inputs); each function's container is started once and kept warm for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqsQueues } from '../../../simulator/aws/sqs/sqs-queues.ts';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import { asyncInvokeConfigs } from '../../../simulator/lambda/async-invocation.ts';
import { FunctionError } from '../../../simulator/lambda/function-error.ts';
import { startHttpApi } from '../../../simulator/lambda/http-api.ts';
import { httpApiRoutes } from '../../../simulator/lambda/http-api-routes.ts';
import type { LambdaFunction } from '../../../simulator/lambda/lambda-function.ts';
import { lambdaFunctions } from '../../../simulator/lambda/lambda-functions.ts';
import {
  logSubscriptions,
  SubscribedLogGroups,
} from '../../../simulator/lambda/logs-subscription.ts';
import {
  SqsEventSourceMapping,
  sqsEventSourceMappings,
} from '../../../simulator/lambda/sqs-event-source-mapping.ts';
import {
  type ResolveValue,
  templateResolver,
} from '../../../simulator/lambda/template-resolver.ts';
import type { SynthesizedStack } from '../../../simulator/synthesis/synthesized-stack.ts';
import { fixture } from '../../handlers/audit-relay/support.ts';
import { synthesizedForTests } from '../../support/synthesized-stack.ts';
import {
  startUnavailableEndpoint,
  type UnavailableEndpoint,
} from '../../support/unavailable-aws-endpoint.ts';
import { messagesIn, SPOT_WARNING as SPOT_EVENT, signedFetch } from './support.ts';

const WORLD_START = Date.parse('2026-11-27T09:00:00.000Z');
let worldNow = WORLD_START;

let stack: SynthesizedStack;
let aws: UnavailableEndpoint;
let functions: Record<string, LambdaFunction>;
let resolve: ResolveValue;

/** The function whose logical id starts with `name` (the template adds a hash). */
function fn(name: string): LambdaFunction {
  const found = Object.entries(functions).find(([id]) => id.slice(0, -8) === name);
  if (found === undefined) throw new Error(`the template has no function ${name}`);
  return found[1];
}

/** One key per function, named after it. */
const keyOf = (logicalId: string) => `AKIA${logicalId.slice(0, -8).toUpperCase().padEnd(16, 'X')}`;

beforeAll(async () => {
  stack = synthesizedForTests();
  aws = await startUnavailableEndpoint();
  resolve = templateResolver(
    stack.template,
    simulatedAccount({ stackName: stack.stackName, sqsEndpoint: aws.url }),
  );
  functions = lambdaFunctions(stack, {
    resolve,
    region: 'us-east-1',
    endpointUrl: aws.url,
    now: () => worldNow,
    credentialsOf: (logicalId) => ({
      accessKeyId: keyOf(logicalId),
      secretAccessKey: `secret-of-${logicalId}`,
      sessionToken: `session-of-${logicalId}`,
    }),
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(functions ?? {}).map((f) => f.close()));
  await aws?.close();
});

describe('the controller as Lambda runs its bundle', () => {
  it('is defined by its template: memory, timeout, role and variables resolved', () => {
    // Act
    const { definition } = fn('Controller');
    // Assess
    expect(definition).toMatchObject({
      handler: 'index.handler',
      runtime: 'nodejs22.x',
      memorySize: 2048,
      timeoutSeconds: 180,
      reservedConcurrency: undefined,
      roleArn: expect.stringMatching(
        /^arn:aws:iam::111122223333:role\/Nodesmith-shop-ControllerRole[0-9A-F]{8}$/,
      ),
    });
    expect(definition.codeDirectory.startsWith(stack.outdir)).toBe(true);
    expect(definition.environment).toEqual({
      CLUSTER_NAME: 'shop',
      STATE_TABLE: expect.stringMatching(/^Nodesmith-shop-State[0-9A-F]{8}$/),
      CLAIMS_TABLE: expect.stringMatching(/^Nodesmith-shop-StateNodeClaims[0-9A-F]{8}$/),
      WORK_QUEUE_URL: expect.stringMatching(
        new RegExp(`^${aws.url}/111122223333/Nodesmith-shop-QueuesWork[0-9A-F]{8}$`),
      ),
      EVENT_BUS_NAME: expect.stringMatching(/^NodesmithshopDecisions[0-9A-F]{8}$/),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
  });

  it('asks EKS for its cluster with its role’s keys, and fails as its root does without EKS', async () => {
    // Prepare
    const controller = fn('Controller');
    const tick = { source: 'schedule', reason: 'tick' };
    const event = {
      Records: [
        {
          messageId: 'message-0',
          receiptHandle: 'receipt-0',
          body: JSON.stringify(tick),
          attributes: { ApproximateReceiveCount: '1' },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:queue',
          awsRegion: 'us-east-1',
        },
      ],
    };
    // Act
    const failure = await controller.invoke(event).catch((err: unknown) => err);
    // Assess
    expect(failure).toBeInstanceOf(FunctionError);
    expect((failure as FunctionError).errorType).toBe('ServiceUnavailableException');
    expect((failure as FunctionError).errorMessage).toBe('Service Unavailable');
    const controllerCalls = aws.calls.filter(
      (c) => c.accessKeyId === keyOf(controller.definition.logicalId),
    );
    expect(controllerCalls.length).toBeGreaterThan(0);
    expect(new Set(controllerCalls.map((c) => `${c.service} ${c.method} ${c.path}`))).toEqual(
      new Set(['eks GET /clusters/shop']),
    );
    expect(controllerCalls[0]?.region).toBe('us-east-1');
  }, 60_000);
});

/** The template's queue `id` (its logical id's start) and its dead-letter queue, as SQS holds them. */
function queuesOf(id: string) {
  const resources = Object.entries(stack.template.Resources);
  const logicalId = (name: string) => resources.find(([key]) => key.slice(0, -8) === name)?.[0];
  const queueId = logicalId(id) ?? '';
  const properties = stack.template.Resources[queueId]?.Properties ?? {};
  const redrive = properties.RedrivePolicy as {
    deadLetterTargetArn: unknown;
    maxReceiveCount: number;
  };
  const queues = new SqsQueues({
    endpointUrl: () => aws.url,
    region: 'us-east-1',
    account: '111122223333',
    now: () => worldNow,
  });
  const nameOf = (arn: string) => arn.split(':')[5] ?? '';
  const deadLetterTargetArn = resolve(redrive.deadLetterTargetArn);
  const deadLetterQueue = queues.create(nameOf(deadLetterTargetArn));
  const queue = queues.create(nameOf(resolve({ 'Fn::GetAtt': [queueId, 'Arn'] })), {
    visibilityTimeout: Number(properties.VisibilityTimeout),
    redrivePolicy: { deadLetterTargetArn, maxReceiveCount: redrive.maxReceiveCount },
  });
  return { queue, deadLetterQueue };
}

const SPOT_WARNING = JSON.stringify(SPOT_EVENT);

describe('the interruption function behind its event source mapping', () => {
  it('deletes what it answered, and a message that fails comes back until the dead-letter queue', async () => {
    // Prepare
    const interruption = fn('Interruption');
    const definition = sqsEventSourceMappings(stack.template, resolve).find(
      (m) => m.functionLogicalId === interruption.definition.logicalId,
    );
    if (definition === undefined) throw new Error('no mapping for the interruption function');
    const { queue, deadLetterQueue } = queuesOf('QueuesInterruption');
    const mapping = new SqsEventSourceMapping(definition, {
      queue,
      invoke: (event) => interruption.invoke(event),
      now: () => worldNow,
    });
    const warning = queue.send(SPOT_WARNING);
    const unreadable = queue.send('not an event');
    // Act
    const first = await mapping.poll();
    const whileInvisible = mapping.poll();
    const retries = [];
    for (let receive = 2; receive <= 5; receive++) {
      worldNow += 15_000;
      retries.push(await mapping.poll());
    }
    worldNow += 15_000;
    const afterTheLast = mapping.poll();
    // Assess
    expect(definition).toMatchObject({ batchSize: 10, reportBatchItemFailures: true });
    expect(first).toEqual({ deleted: [unreadable], left: [warning] });
    expect(whileInvisible).toBeUndefined();
    expect(retries.map((r) => r?.left)).toEqual([[warning], [warning], [warning], [warning]]);
    expect(afterTheLast).toBeUndefined();
    expect(messagesIn(queue)).toBe(0);
    expect(deadLetterQueue.receive(10).map((m) => [m.messageId, m.body])).toEqual([
      [warning, SPOT_WARNING],
    ]);
    expect(interruption.tally).toMatchObject({ invocations: 5, coldStarts: 1 });
  }, 60_000);
});

describe('the operator API behind its IAM route', () => {
  it('refuses an unsigned call before the function, and invokes the bundle for a signed one', async () => {
    // Prepare
    const operator = {
      secretAccessKey: 'operator-secret',
      arn: 'arn:aws:iam::111122223333:user/operator',
    };
    const api = await startHttpApi({
      routes: httpApiRoutes(stack.template),
      invoke: (id, event) => (functions[id] as LambdaFunction).invoke(event),
      callerOf: (key) => (key === 'AKIAOPERATOREXAMPLE1' ? operator : undefined),
      accountId: '111122223333',
      apiId: 'a1b2c3d4e5',
      now: () => worldNow,
    });
    const url = new URL('/v1/nodepools', api.url);
    const key = { accessKeyId: 'AKIAOPERATOREXAMPLE1', secretAccessKey: operator.secretAccessKey };
    // Act
    const unsigned = await fetch(url);
    const invokedUnsigned = fn('Api').tally.invocations;
    const signedCall = await signedFetch(url, key);
    await api.close();
    // Assess
    expect(unsigned.status).toBe(403);
    expect(invokedUnsigned).toBe(0);
    expect(signedCall.status).not.toBe(403);
    expect(fn('Api').tally.invocations).toBe(1);
    const apiCalls = aws.calls.filter(
      (c) => c.accessKeyId === keyOf(fn('Api').definition.logicalId),
    );
    expect(apiCalls.map((c) => c.service)).toContain('dynamodb');
  }, 60_000);
});

describe('the audit log relay behind the log group’s subscription', () => {
  it('reads the audit lines CloudWatch Logs sends it, and its failed wakes end in the failure queue', async () => {
    // Prepare
    const failed: { destination: string; record: unknown }[] = [];
    const configOf = asyncInvokeConfigs(stack.template, resolve);
    const groups = new SubscribedLogGroups(logSubscriptions(stack.template, resolve), {
      owner: '111122223333',
      invoke: (id, event) => (functions[id] as LambdaFunction).invoke(event),
      functionArnOf: (id) => (functions[id] as LambdaFunction).definition.functionArn,
      asyncConfigOf: configOf,
      now: () => worldNow,
      onFailure: (destination, record) => failed.push({ destination, record }),
    });
    const { items } = JSON.parse(fixture('pod-unschedulable.json')) as { items: unknown[] };
    const lines = items.map((item, i) => ({
      id: String(i),
      timestamp: worldNow,
      message: JSON.stringify(item),
    }));
    // Act
    const outcomes = await groups.putLogEvents(
      '/aws/eks/shop/cluster',
      'kube-apiserver-audit-0f6b3f9c',
      lines,
    );
    // Assess
    const relay = fn('AuditLogs');
    expect(outcomes).toEqual([
      { functionLogicalId: relay.definition.logicalId, attempts: 3, succeeded: false },
    ]);
    expect(relay.tally).toMatchObject({ invocations: 3, errors: 3 });
    const relayCalls = aws.calls.filter((c) => c.accessKeyId === keyOf(relay.definition.logicalId));
    expect(new Set(relayCalls.map((c) => c.service))).toEqual(new Set(['sqs']));
    expect(failed).toEqual([
      {
        destination: configOf(relay.definition.logicalId).onFailure,
        record: expect.objectContaining({
          requestContext: expect.objectContaining({
            condition: 'RetriesExhausted',
            approximateInvokeCount: 3,
          }),
          responsePayload: { errorType: expect.any(String), errorMessage: 'Service Unavailable' },
        }),
      },
    ]);
  }, 60_000);
});
