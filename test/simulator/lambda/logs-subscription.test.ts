/**
 * The CloudWatch Logs subscription of the template: its filter pattern as CloudWatch Logs reads
 * it, the `{ awslogs: { data } }` event of the lines that match, and the asynchronous invocation
 * with its retries and its `OnFailure` destination.
 */
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { simulatedAccount } from '../../../simulator/iam/simulated-account.ts';
import { asyncInvokeConfigs } from '../../../simulator/lambda/async-invocation.ts';
import { filterMatches } from '../../../simulator/lambda/log-filter-pattern.ts';
import {
  type LogEvent,
  logSubscriptions,
  SubscribedLogGroups,
} from '../../../simulator/lambda/logs-subscription.ts';
import { templateResolver } from '../../../simulator/lambda/template-resolver.ts';
import { synthesizedForTests } from '../../support/synthesized-stack.ts';

const AUDIT_FILTER = '{ ($.objectRef.resource = "pods") || ($.objectRef.resource = "nodes") }';
const line = (resource: string, verb = 'create') =>
  JSON.stringify({
    kind: 'Event',
    verb,
    objectRef: { resource, namespace: 'shop', name: 'web-1' },
  });

function templateSubscriptions() {
  const { template, stackName } = synthesizedForTests();
  const resolve = templateResolver(template, simulatedAccount({ stackName }));
  return {
    subscriptions: logSubscriptions(template, resolve),
    configOf: asyncInvokeConfigs(template, resolve),
  };
}

// Synthesized once for every test file, or read back from the cache.
beforeAll(() => {
  synthesizedForTests();
}, 180_000);

describe('a CloudWatch Logs filter pattern', () => {
  it.each([
    [AUDIT_FILTER, line('pods'), true],
    [AUDIT_FILTER, line('nodes'), true],
    [AUDIT_FILTER, line('configmaps'), false],
    [AUDIT_FILTER, 'not json at all', false],
    ['{ $.verb = "create" && $.objectRef.name = "web-*" }', line('pods'), true],
    ['{ $.verb != "create" }', line('pods'), false],
    ['{ ($.code >= 400) && ($.code < 500) }', '{"code":429}', true],
    ['{ $.code = 200 }', '{"code":"200"}', false],
    ['{ $.items[1].name = "b" }', '{"items":[{"name":"a"},{"name":"b"}]}', true],
    ['', 'anything', true],
    ['ERROR "no capacity" -retrying', 'ERROR no capacity in us-east-1a', true],
    ['ERROR "no capacity" -retrying', 'ERROR no capacity, retrying', false],
  ])('%s on %s: %s', (pattern, message, expected) => {
    // Act
    const matched = filterMatches(pattern, message);
    // Assess
    expect(matched).toBe(expected);
  });
});

describe('the audit log subscription', () => {
  it('is read from the template: the EKS audit log group to the AuditLogs function', () => {
    // Act
    const { subscriptions, configOf } = templateSubscriptions();
    // Assess
    expect(
      subscriptions.map((s) => ({ ...s, functionLogicalId: s.functionLogicalId.slice(0, -8) })),
    ).toEqual([
      {
        filterName: expect.stringMatching(/^Nodesmith-shop-AuditLogSubscription[0-9A-F]{8}$/),
        logGroupName: '/aws/eks/shop/cluster',
        filterPattern: AUDIT_FILTER,
        functionLogicalId: 'AuditLogs',
      },
    ]);
    expect(configOf(subscriptions[0]?.functionLogicalId ?? '')).toEqual({
      maximumRetryAttempts: 2,
      onFailure: expect.stringMatching(
        /^arn:aws:sqs:us-east-1:111122223333:Nodesmith-shop-AuditLogFailures[0-9A-F]{8}$/,
      ),
    });
  });

  it('sends the matching lines gzipped and base64-encoded, and nothing when none match', async () => {
    // Prepare
    const { subscriptions, configOf } = templateSubscriptions();
    const events: unknown[] = [];
    const groups = new SubscribedLogGroups(subscriptions, {
      owner: '111122223333',
      invoke: async (_, event) => {
        events.push(event);
      },
      functionArnOf: (id) => `arn:aws:lambda:us-east-1:111122223333:function:${id}`,
      asyncConfigOf: configOf,
      now: () => 0,
      onFailure: () => {},
    });
    const written: LogEvent[] = [
      { id: '1', timestamp: 1795553530105, message: line('pods') },
      { id: '2', timestamp: 1795553530106, message: line('configmaps') },
      { id: '3', timestamp: 1795553530107, message: line('nodes', 'delete') },
    ];
    // Act
    await groups.putLogEvents('/aws/eks/shop/cluster', 'kube-apiserver-audit-0f6b3f9c', written);
    await groups.putLogEvents('/aws/eks/shop/cluster', 'kube-apiserver-audit-0f6b3f9c', [
      written[1] as LogEvent,
    ]);
    await groups.putLogEvents('/aws/lambda/other', 'stream', written);
    // Assess
    expect(events).toHaveLength(1);
    const data = (events[0] as { awslogs: { data: string } }).awslogs.data;
    expect(JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8'))).toEqual({
      messageType: 'DATA_MESSAGE',
      owner: '111122223333',
      logGroup: '/aws/eks/shop/cluster',
      logStream: 'kube-apiserver-audit-0f6b3f9c',
      subscriptionFilters: [subscriptions[0]?.filterName],
      logEvents: [written[0], written[2]],
    });
  });

  it('retries a failed invocation twice, then sends its record to the failure queue', async () => {
    // Prepare
    const { subscriptions, configOf } = templateSubscriptions();
    const failed: { destination: string; record: any }[] = [];
    let attempts = 0;
    const groups = new SubscribedLogGroups(subscriptions, {
      owner: '111122223333',
      invoke: async () => {
        attempts += 1;
        throw Object.assign(new Error('Service Unavailable'), {
          errorType: 'ServiceUnavailableException',
          errorMessage: 'Service Unavailable',
        });
      },
      functionArnOf: (id) => `arn:aws:lambda:us-east-1:111122223333:function:${id}`,
      asyncConfigOf: configOf,
      now: () => Date.parse('2026-11-27T09:00:00.000Z'),
      onFailure: (destination, record) => failed.push({ destination, record }),
    });
    // Act
    const outcomes = await groups.putLogEvents('/aws/eks/shop/cluster', 'stream', [
      { id: '1', timestamp: 1795553530105, message: line('pods') },
    ]);
    // Assess
    expect(attempts).toBe(3);
    expect(outcomes.map((o) => [o.attempts, o.succeeded])).toEqual([[3, false]]);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.destination).toBe(
      configOf(subscriptions[0]?.functionLogicalId ?? '').onFailure,
    );
    expect(failed[0]?.record).toMatchObject({
      version: '1.0',
      timestamp: '2026-11-27T09:00:00.000Z',
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
      requestPayload: { awslogs: { data: expect.any(String) } },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: {
        errorType: 'ServiceUnavailableException',
        errorMessage: 'Service Unavailable',
      },
    });
  });
});
