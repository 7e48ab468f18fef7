/**
 * The controller function as SQS invokes it: a batch of wakes runs one pass; a message that is
 * not a wake is reported for redelivery (and, in the end, the dead-letter queue) while the wakes
 * beside it are not; a pass that fails fails the batch so the wakes come back.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { makeControllerHandler } from '../../../functions/handlers/controller/handler.ts';
import {
  emptyPassReport,
  type PassReport,
} from '../../../functions/use-cases/controller/pass-report.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { emfLinesOf } from '../../support/emf-lines.ts';

const REPORT: PassReport = {
  ...emptyPassReport('2026-11-24T09:00:00.000Z'),
  ran: true,
  finishedAt: '2026-11-24T09:00:00.350Z',
  claimFailures: [
    {
      at: '2026-11-24T09:00:00.000Z',
      action: 'TerminateInstance',
      claim: 'default-a1b2c',
      message: 'terminating instance i-0123456789abcdef0: UnauthorizedOperation',
      attempts: 1,
      retryAt: '2026-11-24T09:00:10.000Z',
    },
  ],
  pools: [{ nodePool: 'default', nodes: 3, costPerHour: 0.288 }],
  decisions: [
    {
      kind: 'Registered',
      time: '2026-11-24T09:00:00.000Z',
      nodeClaim: 'default-a1b2c',
      nodePool: 'default',
      nodeName: 'ip-10-0-1-7.ec2.internal',
      instanceType: 'm5.large',
      zone: 'us-east-1a',
      capacityType: 'spot',
      pricePerHour: 0.096,
      reason: 'node ip-10-0-1-7.ec2.internal joined',
      nodeClass: 'default',
    },
  ],
  limitsReached: [
    {
      kind: 'LimitReached',
      time: '2026-11-24T09:00:00.000Z',
      limit: 'nodes',
      message: 'The cluster would exceed its nodes limit: 400 of 400 used',
      pods: 12,
    },
  ],
};

function batch(...bodies: string[]): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}`,
      receiptHandle: `r-${i}`,
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '1795553530105',
        SenderId: 'AROAEXAMPLE',
        ApproximateFirstReceiveTimestamp: '1795553530200',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:nodesmith-work',
      awsRegion: 'us-east-1',
    })),
  };
}

const wake = (source: string) => JSON.stringify({ source, reason: 'test' });

describe('the controller function', () => {
  it('runs one pass for a batch of wakes, named after the invocation and told the time it has left', async () => {
    const passes: [string, number][] = [];
    const handler = makeControllerHandler({
      pass: async (holder, remainingMs) => {
        passes.push([holder, remainingMs]);
        return REPORT;
      },
    });
    const response = await handler(batch(wake('audit'), wake('schedule'), wake('controller')), {
      ...lambdaContext('req-1'),
      getRemainingTimeInMillis: () => 179_500,
    });
    expect(response).toEqual({ batchItemFailures: [] });
    expect(passes).toEqual([['req-1', 179_500]]);
  });

  it('publishes nodes and cost per NodePool under Karpenter’s nodepool dimension, and the decisions under Karpenter’s names', async () => {
    const emf = await emfLinesOf(async () => {
      const handler = makeControllerHandler({ pass: async () => REPORT });
      await handler(batch(wake('schedule')), lambdaContext('req-metrics'));
    });
    const perPool = emf.filter(
      (e) => e.nodepool === 'default' && (e.Nodes !== undefined || e.CostPerHour !== undefined),
    );
    expect(perPool.map((e) => [e.Nodes, e.CostPerHour])).toEqual([
      [3, undefined],
      [undefined, 0.288],
    ]);
    for (const e of perPool) {
      expect(e._aws.CloudWatchMetrics[0].Dimensions[0]).toContain('nodepool');
    }
    const pass = emf.find((e) => e.PassDuration !== undefined);
    expect(pass).toMatchObject({
      NodeClaimActionFailures: 1,
      LimitsReached: 1,
      PodsRefusedByLimits: 0,
    });
    expect(pass?.nodepool).toBeUndefined();
    // The registration, under Karpenter's name and labels, and again summed under `service`.
    const created = emf.find((e) => e.karpenter_nodes_created_total !== undefined);
    expect(created).toMatchObject({
      karpenter_nodes_created_total: 1,
      nodepool: 'default',
      zone: 'us-east-1a',
      service: 'nodesmith-controller',
    });
    expect(created?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'Nodesmith',
      Dimensions: [['service', 'nodepool', 'zone'], ['service']],
      Metrics: [{ Name: 'karpenter_nodes_created_total', Unit: 'Count' }],
    });
  });

  it('reports messages that are not wakes, alone, and still runs the pass for the others', async () => {
    let passes = 0;
    const handler = makeControllerHandler({
      pass: async () => {
        passes += 1;
        return REPORT;
      },
    });
    const response = await handler(
      batch(wake('audit'), 'not json', JSON.stringify({ source: 'cron', reason: 'x' })),
      lambdaContext('req-2'),
    );
    expect(response.batchItemFailures).toEqual([
      { itemIdentifier: 'm-1' },
      { itemIdentifier: 'm-2' },
    ]);
    expect(passes).toBe(1);
  });

  it('runs no pass when nothing in the batch is a wake', async () => {
    let passes = 0;
    const handler = makeControllerHandler({
      pass: async () => {
        passes += 1;
        return REPORT;
      },
    });
    const response = await handler(batch('{}'), lambdaContext('req-3'));
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-0' }]);
    expect(passes).toBe(0);
  });

  it('fails the whole batch when the pass fails, so the wakes are delivered again', async () => {
    const handler = makeControllerHandler({
      pass: async () => {
        throw new Error('listing nodes: connect ECONNREFUSED');
      },
    });
    await expect(handler(batch(wake('audit')), lambdaContext('req-4'))).rejects.toThrow(
      'ECONNREFUSED',
    );
  });
});
