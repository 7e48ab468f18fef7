/**
 * The interruption function as SQS invokes it, on DynamoDB Local and the fake API server:
 * each documented EventBridge shape, duplicated and reordered; unreadable messages dropped with
 * their body logged; a transient failure reported for redelivery (and, in the end, the
 * dead-letter queue) while the rest of the batch is not.
 */
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { makeInterruptionHandler } from '../../../functions/handlers/interruption/handler.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';
import type { Wake, Waker } from '../../../functions/ports/wake.ts';
import { handleInterruption } from '../../../functions/use-cases/interruption/handle-interruption.ts';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/server.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { aNodePool } from '../../support/builders.ts';
import { useFreshStateStores } from '../../support/dynamodb-local.ts';
import { emfLinesOf } from '../../support/emf-lines.ts';
import { CLAIMS, seedClaims } from './fixture-claims.ts';

const NOW = new Date('2026-11-24T09:00:30Z');
const freshState = useFreshStateStores('interruption');
let server: FakeApiServer;

beforeEach(async () => {
  server = await startFakeApiServer({ namespaces: ['default'] });
});
afterEach(async () => {
  await server.close();
});

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');
}

/** An SQS event of these bodies, as Lambda's event source mapping delivers it. */
function sqsEvent(...bodies: string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `message-${i}`,
      receiptHandle: `receipt-${i}`,
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(NOW.getTime()),
        SenderId: 'AIDAIENQZJOLO23YVJ4VO',
        ApproximateFirstReceiveTimestamp: String(NOW.getTime()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:nodesmith-interruption',
      awsRegion: 'us-east-1',
    })),
  };
}

class Wakes implements Waker {
  readonly queued: Wake[] = [];
  /** Wakes whose reason starts with this are refused once, as a throttled SQS would. */
  failingFor: string | undefined;
  async wake(wake: Wake): Promise<void> {
    if (this.failingFor !== undefined && wake.reason.startsWith(this.failingFor)) {
      this.failingFor = undefined;
      throw new ThrottledError('SQS refused for rate');
    }
    this.queued.push(wake);
  }
}

async function setUp(pool: NodePool = aNodePool()) {
  const state = await freshState();
  await state.nodePools.create(pool, 'hash');
  await seedClaims(state, server);
  const waker = new Wakes();
  const logger = new Logger({ serviceName: 'test' });
  const real = kubernetesClusterFrom(kubeConfigFor(server.url), { now: () => NOW });
  /** While down, every Kubernetes call fails as an unreachable API server makes it fail. */
  const kubernetes = { down: false, calls: 0 };
  const reach = () => {
    kubernetes.calls += 1;
    if (kubernetes.down) throw new Error('connect ECONNREFUSED 10.0.0.1:443');
    return real;
  };
  const cluster = {
    addTaints: async (...args: Parameters<typeof real.addTaints>) => reach().addTaints(...args),
    createEvent: async (...args: Parameters<typeof real.createEvent>) =>
      reach().createEvent(...args),
  };
  const handler = makeInterruptionHandler({
    logger,
    now: () => NOW,
    handle: (message) =>
      handleInterruption({ state, cluster, waker, clock: { now: () => NOW } }, message),
  });
  const invoke = (...bodies: string[]) => handler(sqsEvent(...bodies), lambdaContext('test'));
  return { state, waker, logger, invoke, kubernetes };
}

function nodeEvents(node: string) {
  return server.store
    .list('events', 'default')
    .filter((e) => (e.involvedObject as { name: string }).name === node)
    .map((e) => String(e.reason));
}

function taintsOf(node: string) {
  const spec = server.store.get('nodes', node)?.spec as { taints?: { key: string }[] } | undefined;
  return (spec?.taints ?? []).map((t) => t.key);
}

describe('the interruption function', () => {
  it('marks a spot-interrupted claim for deletion, cordons its node, marks the offering and wakes the controller', async () => {
    const { state, waker, invoke } = await setUp();
    const response = await invoke(fixture('spot-interruption'));
    expect(response.batchItemFailures).toEqual([]);
    const claim = await state.nodeClaims.get('default-spot1');
    expect(claim?.phase).toBe('Disrupting');
    expect(claim?.disruption).toMatchObject({
      reason: 'SpotInterrupted',
      decidedAt: NOW.toISOString(),
    });
    expect(taintsOf('ip-10-0-1-1.ec2.internal')).toContain('karpenter.sh/disrupted');
    const unavailable = await state.unavailableOfferings.listLive(NOW);
    expect(unavailable.map((u) => [u.instanceType, u.zone, u.capacityType])).toEqual([
      ['m7g.large', 'us-east-1a', 'spot'],
    ]);
    expect(waker.queued).toEqual([
      { source: 'interruption', reason: 'SpotInterruption for default-spot1' },
    ]);
    expect(nodeEvents('ip-10-0-1-1.ec2.internal')).toEqual(['SpotInterrupted']);
  });

  it('counts each message as Karpenter’s interruption controller does, under its names and labels', async () => {
    // Prepare
    const { invoke } = await setUp();
    // Act
    const emf = await emfLinesOf(() =>
      invoke(fixture('spot-interruption'), fixture('health-issue'), 'not json'),
    );
    // Assess
    const values = (name: string) =>
      emf
        .filter((e) => e[name] !== undefined)
        .map((e) => {
          const dimensions: string[] = e._aws.CloudWatchMetrics[0].Dimensions[0];
          const labels = dimensions.filter((d) => d !== 'service').map((d) => `${d}=${e[d]}`);
          return [labels.join(','), e[name]];
        })
        // The batch's messages are handled side by side, in no fixed order.
        .sort(([a], [b]) => (a < b ? -1 : 1));
    expect(values('karpenter_interruption_received_messages_total')).toEqual([
      // An AWS Health issue, not a scheduled change, is received as a no-op.
      ['message_type=no_op', 1],
      ['message_type=spot_interrupted', 1],
    ]);
    expect(values('karpenter_nodeclaims_disrupted_total')).toEqual([
      ['reason=spot_interrupted,nodepool=default,capacity_type=spot', 1],
    ]);
    // The spot warning was sent 30 s before the function read it.
    expect(values('karpenter_interruption_message_queue_duration_seconds')).toEqual([['', 30]]);
    expect(values('karpenter_interruption_deleted_messages_total')).toEqual([
      ['', 1],
      ['', 1],
      ['', 1],
    ]);
  });

  it('does nothing new for a duplicated or redelivered event', async () => {
    const { state, invoke } = await setUp();
    const body = fixture('spot-interruption');
    await invoke(body, body);
    const first = await state.nodeClaims.get('default-spot1');
    const again = await invoke(body);
    expect(again.batchItemFailures).toEqual([]);
    expect(await state.nodeClaims.get('default-spot1')).toEqual(first);
    expect(nodeEvents('ip-10-0-1-1.ec2.internal')).toEqual(['SpotInterrupted']);
  });

  it('keeps the first reason when events about one instance arrive out of order', async () => {
    const { state, invoke } = await setUp();
    await invoke(fixture('state-change-stopping'));
    const stopping = await state.nodeClaims.get('default-od001');
    expect(stopping?.disruption?.reason).toBe('InstanceStopping');
    await invoke(fixture('state-change-running'));
    expect(await state.nodeClaims.get('default-od001')).toEqual(stopping);
    expect(nodeEvents('ip-10-0-1-2.ec2.internal')).toEqual(['InstanceStopping']);
  });

  it('reads AWS Health scheduled changes naming the instance by ARN or by bare id', async () => {
    const { state, invoke } = await setUp();
    const response = await invoke(
      fixture('health-scheduled-change'),
      fixture('health-scheduled-change-bare-id'),
    );
    expect(response.batchItemFailures).toEqual([]);
    expect((await state.nodeClaims.get('default-od002'))?.disruption).toMatchObject({
      reason: 'ScheduledChange',
      message: 'scheduled maintenance (AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED)',
    });
    expect((await state.nodeClaims.get('default-od001'))?.disruption).toMatchObject({
      reason: 'ScheduledChange',
      message: 'scheduled maintenance (AWS_EC2_INSTANCE_STOP_SCHEDULED)',
    });
    expect(taintsOf('ip-10-0-1-3.ec2.internal')).toContain('karpenter.sh/disrupted');
  });

  it('drains a claim whose capacity reservation warns of an interruption, and marks no spot offering', async () => {
    // Prepare: the shape of aws: pkg/controllers/interruption/suite_test.go
    // capacityReservationInterruptionMessage
    const { state, waker, invoke } = await setUp();

    // Act
    const response = await invoke(fixture('capacity-reservation-interruption'));

    // Assess
    expect(response.batchItemFailures).toEqual([]);
    expect((await state.nodeClaims.get('default-od001'))?.disruption).toMatchObject({
      reason: 'CapacityReservationInstanceInterrupted',
      message:
        'capacity reservation interruption warning: EC2 reclaims the instance for the reservation',
      decidedAt: NOW.toISOString(),
    });
    expect(taintsOf('ip-10-0-1-2.ec2.internal')).toContain('karpenter.sh/disrupted');
    expect(await state.unavailableOfferings.listLive(NOW)).toEqual([]);
    expect(waker.queued).toEqual([
      {
        source: 'interruption',
        reason: 'CapacityReservationInterruption for default-od001',
      },
    ]);
    expect(nodeEvents('ip-10-0-1-2.ec2.internal')).toEqual([
      'CapacityReservationInstanceInterrupted',
    ]);
  });

  it('ignores health issues and instances entering running', async () => {
    const { state, waker, invoke } = await setUp();
    const response = await invoke(fixture('health-issue'), fixture('state-change-running'));
    expect(response.batchItemFailures).toEqual([]);
    expect((await state.nodeClaims.list()).map((c) => c.phase)).toEqual(
      Array(3).fill('Initialized'),
    );
    expect(waker.queued).toEqual([]);
  });

  it('only records a rebalance recommendation, unless the NodePool opts in', async () => {
    const recorded = await setUp();
    await recorded.invoke(fixture('rebalance'));
    expect((await recorded.state.nodeClaims.get('default-spot1'))?.phase).toBe('Initialized');
    expect(nodeEvents('ip-10-0-1-1.ec2.internal')).toEqual(['SpotRebalanceRecommendation']);
    await server.close();
    server = await startFakeApiServer({ namespaces: ['default'] });
    const pool = aNodePool();
    const optedIn = await setUp({
      ...pool,
      metadata: { ...pool.metadata, annotations: { 'nodesmith.io/drain-on-rebalance': 'true' } },
      spec: {
        ...pool.spec,
        template: {
          ...pool.spec.template,
          spec: { ...pool.spec.template.spec, terminationGracePeriod: '10m' },
        },
      },
    });
    await optedIn.invoke(fixture('rebalance'));
    const claim = await optedIn.state.nodeClaims.get('default-spot1');
    expect(claim?.disruption).toMatchObject({
      reason: 'RebalanceRecommended',
      terminateBy: '2026-11-24T09:10:30.000Z',
    });
  });

  it('drops unreadable messages, logging their body, and handles the rest', async () => {
    const { state, logger, invoke } = await setUp();
    const warn = vi.spyOn(logger, 'warn');
    const missingId = JSON.stringify({
      ...JSON.parse(fixture('spot-interruption')),
      id: undefined,
    });
    const response = await invoke('not json', missingId, fixture('spot-interruption'));
    expect(response.batchItemFailures).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ body: 'not json', reason: 'body is not JSON' });
    expect(warn.mock.calls[1]?.[1]).toMatchObject({ body: missingId });
    expect((await state.nodeClaims.get('default-spot1'))?.phase).toBe('Disrupting');
  });

  it('reports a transient failure for redelivery, and the redelivery finishes the work once', async () => {
    const { state, waker, invoke } = await setUp();
    waker.failingFor = 'StateChange';
    const response = await invoke(fixture('state-change-stopping'), fixture('spot-interruption'));
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'message-0' }]);
    expect((await state.nodeClaims.get('default-spot1'))?.phase).toBe('Disrupting');
    const retried = await invoke(fixture('state-change-stopping'));
    expect(retried.batchItemFailures).toEqual([]);
    expect(nodeEvents('ip-10-0-1-2.ec2.internal')).toEqual(['InstanceStopping']);
    expect(waker.queued.map((w) => w.reason)).toContain('StateChange for default-od001');
  });

  it('marks the claim, the offering and wakes the controller while the API server is down, and taints and tells on redelivery', async () => {
    const { state, waker, invoke, kubernetes } = await setUp();
    kubernetes.down = true;
    const failed = await invoke(fixture('spot-interruption'));
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: 'message-0' }]);
    expect((await state.nodeClaims.get('default-spot1'))?.disruption?.reason).toBe(
      'SpotInterrupted',
    );
    expect((await state.unavailableOfferings.listLive(NOW)).map((u) => u.instanceType)).toEqual([
      'm7g.large',
    ]);
    expect(waker.queued.map((w) => w.reason)).toEqual(['SpotInterruption for default-spot1']);
    expect(taintsOf('ip-10-0-1-1.ec2.internal')).toEqual([]);
    kubernetes.down = false;
    const retried = await invoke(fixture('spot-interruption'));
    expect(retried.batchItemFailures).toEqual([]);
    expect(taintsOf('ip-10-0-1-1.ec2.internal')).toContain('karpenter.sh/disrupted');
    expect(nodeEvents('ip-10-0-1-1.ec2.internal')).toEqual(['SpotInterrupted']);
  });

  it('answers an event about an instance that is none of the cluster’s claims without calling Kubernetes', async () => {
    const { invoke, kubernetes } = await setUp();
    kubernetes.down = true;
    const other = fixture('spot-interruption').replaceAll(
      'i-0b662ef9931388ba0',
      'i-0aaaaaaaaaaaaaaaa',
    );
    expect((await invoke(other)).batchItemFailures).toEqual([]);
    expect(kubernetes.calls).toBe(0);
  });

  it('leaves instances it has no claim for alone', async () => {
    const { state, waker, invoke } = await setUp();
    const other = fixture('spot-interruption').replaceAll(
      'i-0b662ef9931388ba0',
      'i-0aaaaaaaaaaaaaaaa',
    );
    const response = await invoke(other);
    expect(response.batchItemFailures).toEqual([]);
    const phases = (await state.nodeClaims.list()).map((c) => [c.name, c.phase]);
    expect(Object.fromEntries(phases)).toEqual(
      Object.fromEntries(CLAIMS.map((c) => [c.name, 'Initialized'])),
    );
    expect(waker.queued).toEqual([]);
  });
});
