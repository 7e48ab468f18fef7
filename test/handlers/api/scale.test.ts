/**
 * A NodePool's scale subresource through the API function's middy chain, on the in-memory state
 * store (core: pkg/apis/v1/nodepool.go, `+kubebuilder:subresource:scale`, and the CEL rule that
 * keeps a pool static or dynamic): GET, PUT and PATCH of `spec.replicas`, refused for a dynamic
 * pool with Karpenter's message, and the same rule on a replacement of the whole pool.
 */
import { describe, expect, it } from 'vitest';
import { MODE_TRANSITION_MESSAGE } from '../../../functions/domain/static-pools/pool-mode-transition.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { anApiHandler, apiRequest } from '../../support/api-requests.ts';
import { aMinimalNodePool } from '../../support/karpenter-documents.ts';

function aPool(replicas?: number) {
  const pool = aMinimalNodePool();
  return { ...pool, spec: { ...pool.spec, ...(replicas === undefined ? {} : { replicas }) } };
}

const scaleBody = (replicas: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'default', ...extra },
    spec: { replicas },
  });

async function setUp(replicas?: number) {
  const state = makeMemoryStateStore();
  const { handler, wakes } = anApiHandler(state);
  const send = async (
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ) => {
    const event = apiRequest(method, path, { ...(body === undefined ? {} : { body }), headers });
    const reply = await handler(event, lambdaContext('api-test'));
    return {
      status: reply.statusCode,
      body: JSON.parse(String(reply.body)),
      headers: reply.headers,
    };
  };
  await send('PUT', '/v1/nodepools/default', JSON.stringify(aPool(replicas)));
  wakes.length = 0;
  const replicasStored = async () => (await state.nodePools.get('default'))?.document.spec.replicas;
  return { send, wakes, replicasStored };
}

describe("a NodePool's scale", () => {
  it('shows a static pool as an autoscaling/v1 Scale: its replicas and its nodes', async () => {
    // Prepare
    const { send } = await setUp(3);

    // Act
    const reply = await send('GET', '/v1/nodepools/default/scale');

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'default', resourceVersion: '1' },
      spec: { replicas: 3 },
      status: { replicas: 0 },
    });
    expect(reply.headers).toMatchObject({ etag: '"1"' });
  });

  it.each([
    { method: 'PUT', body: scaleBody(5) },
    { method: 'PATCH', body: JSON.stringify({ spec: { replicas: 5 } }) },
  ])('takes new replicas by $method and wakes the controller', async ({ method, body }) => {
    // Prepare
    const { send, wakes, replicasStored } = await setUp(3);

    // Act
    const reply = await send(method, '/v1/nodepools/default/scale', body);

    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      result: 'configured',
      spec: { replicas: 5 },
      metadata: { resourceVersion: '2' },
    });
    expect(await replicasStored()).toBe(5);
    expect(wakes).toEqual([{ source: 'api', reason: 'NodePool default scaled to 5' }]);
  });

  it('scales only the version it was read at', async () => {
    // Prepare
    const { send, replicasStored } = await setUp(3);

    // Act
    const stale = await send('PUT', '/v1/nodepools/default/scale', scaleBody(5), {
      'if-match': '"7"',
    });
    const fresh = await send(
      'PUT',
      '/v1/nodepools/default/scale',
      scaleBody(4, { resourceVersion: '1' }),
    );

    // Assess
    expect(stale.status).toBe(409);
    expect(fresh.status).toBe(200);
    expect(await replicasStored()).toBe(4);
  });

  it.each([
    { method: 'PUT', body: scaleBody(-1), field: 'spec.replicas' },
    { method: 'PUT', body: scaleBody('three'), field: 'spec.replicas' },
    { method: 'PATCH', body: JSON.stringify({ spec: { replicas: 1.5 } }), field: 'spec.replicas' },
    { method: 'PATCH', body: JSON.stringify({ spec: { replica: 2 } }), field: 'spec.replica' },
  ])('refuses $body by $method with a 400 naming $field', async ({ method, body, field }) => {
    // Prepare
    const { send, wakes, replicasStored } = await setUp(3);

    // Act
    const reply = await send(method, '/v1/nodepools/default/scale', body);

    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe(field);
    expect(await replicasStored()).toBe(3);
    expect(wakes).toEqual([]);
  });

  it("refuses to scale a dynamic pool with 422 and Karpenter's message, changing nothing", async () => {
    // Prepare
    const { send, wakes, replicasStored } = await setUp();

    // Act
    const reply = await send('PATCH', '/v1/nodepools/default/scale', '{"spec":{"replicas":2}}');

    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ error: MODE_TRANSITION_MESSAGE, field: 'spec.replicas' });
    expect(await replicasStored()).toBeUndefined();
    expect(wakes).toEqual([]);
  });

  it('answers 404 for a pool that does not exist', async () => {
    // Prepare
    const { send } = await setUp(1);

    // Act
    const reply = await send('PUT', '/v1/nodepools/other/scale', scaleBody(2, { name: 'other' }));

    // Assess
    expect(reply.status).toBe(404);
    expect(reply.body.error).toBe('NodePool other does not exist');
  });
});

describe('replacing a NodePool', () => {
  it.each([
    { case: 'a dynamic pool by a static one', from: undefined, to: 2 },
    { case: 'a static pool by a dynamic one', from: 2, to: undefined },
  ])("refuses $case with 422 and Karpenter's message", async ({ from, to }) => {
    // Prepare
    const { send, replicasStored } = await setUp(from);

    // Act
    const reply = await send('PUT', '/v1/nodepools/default', JSON.stringify(aPool(to)));

    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ error: MODE_TRANSITION_MESSAGE, field: 'spec.replicas' });
    expect(await replicasStored()).toBe(from);
  });

  it('takes a static pool with other replicas', async () => {
    // Prepare
    const { send, replicasStored } = await setUp(2);

    // Act
    const reply = await send('PUT', '/v1/nodepools/default', JSON.stringify(aPool(6)));

    // Assess
    expect(reply.status).toBe(200);
    expect(await replicasStored()).toBe(6);
  });
});
