/** Decisions as EventBridge events, through the real SDK client (mocked transport). */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EventBridgeDecisionPublisher } from '../../../functions/adapters/eventbridge/eventbridge-decision-publisher.ts';
import type { Decision, LimitReached } from '../../../functions/ports/decisions.ts';

const events = mockClient(EventBridgeClient);
afterEach(() => events.reset());
// The mock stubs the client's class; the next file in this worker needs the real one.
afterAll(() => events.restore());

function decision(n: number, kind: Decision['kind'] = 'Launched'): Decision {
  return {
    kind,
    time: '2026-11-24T09:00:01.000Z',
    nodeClaim: `general-${String(n).padStart(5, '0')}`,
    nodePool: 'general',
    instanceId: 'i-0123456789abcdef0',
    instanceType: 'm7g.large',
    zone: 'us-east-1a',
    capacityType: 'spot',
    pricePerHour: 0.0312,
    reason: '3 pods unschedulable: shop/web-1, shop/web-2, shop/web-3',
  };
}

function publisher() {
  const warnings: { message: string; fields: Record<string, unknown> }[] = [];
  const instance = new EventBridgeDecisionPublisher({
    client: new EventBridgeClient({ region: 'us-east-1', maxAttempts: 1 }),
    eventBusName: 'nodesmith-shop-prod',
    clusterName: 'shop-prod',
    logger: { warn: (message, fields) => warnings.push({ message, fields }) },
    sleep: async () => undefined,
  });
  return { instance, warnings };
}

const sent = () => events.commandCalls(PutEventsCommand).map((c) => c.args[0].input.Entries ?? []);

describe('decisions on EventBridge', () => {
  it('puts each decision on the bus with its kind as detail type and the decision as detail', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    await publisher().instance.publish([decision(1, 'Registered')]);
    const [[entry]] = sent() as [[NonNullable<ReturnType<typeof sent>[number][number]>]];
    expect(entry).toMatchObject({
      Source: 'nodesmith',
      DetailType: 'NodeClaim Registered',
      EventBusName: 'nodesmith-shop-prod',
      Time: new Date('2026-11-24T09:00:01.000Z'),
    });
    expect(JSON.parse(entry.Detail ?? '')).toEqual({
      version: 1,
      cluster: 'shop-prod',
      ...decision(1, 'Registered'),
    });
  });

  it('puts the moment a limit starts refusing on the bus as Limit Reached', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    const reached: LimitReached = {
      kind: 'LimitReached',
      time: '2026-11-24T09:00:01.000Z',
      nodePool: 'web',
      limit: 'nodesmith.io/hourly-cost',
      message: 'NodePool web would exceed its hourly cost limit: $248.10 of $250.00 used',
      pods: 7,
    };
    await publisher().instance.publish([reached]);
    const [[entry]] = sent() as [[NonNullable<ReturnType<typeof sent>[number][number]>]];
    expect(entry).toMatchObject({ Source: 'nodesmith', DetailType: 'Limit Reached' });
    expect(JSON.parse(entry.Detail ?? '')).toEqual({
      version: 1,
      cluster: 'shop-prod',
      ...reached,
    });
  });

  it('sends ten entries a call, keeping their order', async () => {
    events.on(PutEventsCommand).callsFake((input) => ({
      FailedEntryCount: 0,
      Entries: input.Entries.map(() => ({ EventId: 'e' })),
    }));
    await publisher().instance.publish(Array.from({ length: 23 }, (_, i) => decision(i)));
    const calls = sent();
    expect(calls.map((c) => c.length)).toEqual([10, 10, 3]);
    const claims = calls.flat().map((e) => JSON.parse(e.Detail ?? '').nodeClaim);
    expect(claims).toEqual(Array.from({ length: 23 }, (_, i) => decision(i).nodeClaim));
  });

  it('retries only the entries EventBridge refused', async () => {
    events
      .on(PutEventsCommand)
      .resolvesOnce({
        FailedEntryCount: 1,
        Entries: [
          { EventId: 'e-0' },
          { ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' },
          { EventId: 'e-2' },
        ],
      })
      .resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    const { instance, warnings } = publisher();
    await instance.publish([decision(0), decision(1), decision(2)]);
    expect(sent().map((c) => c.map((e) => JSON.parse(e.Detail ?? '').nodeClaim))).toEqual([
      ['general-00000', 'general-00001', 'general-00002'],
      ['general-00001'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('logs what it could not publish and never fails the pass', async () => {
    events
      .on(PutEventsCommand)
      .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure' }] });
    const refused = publisher();
    await expect(refused.instance.publish([decision(7)])).resolves.toBeUndefined();
    expect(sent()).toHaveLength(3);
    expect(refused.warnings).toEqual([
      {
        message: 'EventBridge refused decisions',
        fields: { refused: ['NodeClaim Launched: general-00007'] },
      },
    ]);

    events.reset();
    events.on(PutEventsCommand).rejects(new Error('AccessDeniedException: not allowed'));
    const denied = publisher();
    await expect(denied.instance.publish([decision(8)])).resolves.toBeUndefined();
    expect(denied.warnings[0]?.message).toBe('publishing decisions failed');
  });

  it('does not retry a refusal the same entry would meet again', async () => {
    events
      .on(PutEventsCommand)
      .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'MalformedDetail' }] });
    const { instance, warnings } = publisher();
    await instance.publish([decision(9)]);
    expect(sent()).toHaveLength(1);
    expect(warnings[0]?.fields).toEqual({ refused: ['NodeClaim Launched: general-00009'] });
  });

  it('sends nothing for no decisions', async () => {
    await publisher().instance.publish([]);
    expect(sent()).toEqual([]);
  });
});
