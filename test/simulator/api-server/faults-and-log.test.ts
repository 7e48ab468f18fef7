import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreChange } from '../../../simulator/api-server/storage.ts';
import { expectFailure, failureOf, type Harness, startHarness } from './harness.ts';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
  h.server.store.create('nodes', { metadata: { name: 'n1' } });
});

afterEach(async () => {
  await h.server.close();
});

describe('the request log', () => {
  it('records method, path, query, content type, headers and body of each request', async () => {
    // Act
    await h.core.patchNode(
      { name: 'n1', body: { metadata: { labels: { a: 'b' } } }, fieldManager: 'probe' },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    // Assess
    expect(h.server.requests.entries).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: '/api/v1/nodes/n1',
        query: { fieldManager: 'probe' },
        contentType: 'application/strategic-merge-patch+json',
        body: { metadata: { labels: { a: 'b' } } },
        rawBody: '{"metadata":{"labels":{"a":"b"}}}',
        status: 200,
        faulted: false,
      }),
    ]);
    expect(h.server.requests.entries[0]?.headers.authorization).toBe('Bearer test-token');
  });

  it('finds requests by method and path pattern and can be cleared', async () => {
    // Prepare
    await h.core.readNode({ name: 'n1' });
    await h.core.listNode();
    // Act
    const reads = h.server.requests.matching('GET', /^\/api\/v1\/nodes/);
    h.server.requests.clear();
    // Assess
    expect(reads.map((r) => r.path)).toEqual(['/api/v1/nodes/n1', '/api/v1/nodes']);
    expect(h.server.requests.entries).toEqual([]);
  });
});

describe('fault injection', () => {
  it('fails the next matching request with the status asked for, then recovers', async () => {
    // Prepare
    const fault = h.server.faults.inject({ method: 'GET', path: '/api/v1/nodes/n1', status: 500 });
    // Act
    const failure = await failureOf(h.core.readNode({ name: 'n1' }));
    const recovered = await h.core.readNode({ name: 'n1' });
    // Assess
    expectFailure(failure, 500, {
      message: 'Internal error occurred: injected failure',
      reason: 'InternalError',
      details: { causes: [{ message: 'injected failure' }] },
    });
    expect(recovered.metadata?.name).toBe('n1');
    expect(fault).toMatchObject({ hits: 1, remaining: 0 });
    expect(h.server.requests.entries.map((r) => [r.status, r.faulted])).toEqual([
      [500, true],
      [200, false],
    ]);
  });

  it('answers 429 with Retry-After for as many requests as asked', async () => {
    // Prepare
    h.server.faults.inject({
      path: /^\/api\/v1\/nodes/,
      status: 429,
      retryAfterSeconds: 3,
      times: 2,
    });
    // Act
    const first = await failureOf(h.core.listNode());
    const second = await failureOf(h.core.readNode({ name: 'n1' }));
    const third = await h.core.listNode();
    // Assess
    for (const failure of [first, second]) {
      expect(failure.code).toBe(429);
      expect(failure.headers['retry-after']).toBe('3');
      expect(failure.body).toMatchObject({
        reason: 'TooManyRequests',
        details: { retryAfterSeconds: 3 },
      });
    }
    expect(third.items).toHaveLength(1);
  });

  it('can apply the request and lose only the answer', async () => {
    // Prepare
    h.server.faults.inject({
      method: 'DELETE',
      path: '/api/v1/nodes/n1',
      status: 503,
      afterApply: true,
    });
    // Act
    const failure = await failureOf(h.core.deleteNode({ name: 'n1' }));
    // Assess
    expect(failure.body).toMatchObject({ reason: 'ServiceUnavailable', code: 503 });
    expect(h.server.store.get('nodes', 'n1')).toBeUndefined();
  });

  it('sends a custom body and message when given', async () => {
    // Prepare
    h.server.faults.inject({ path: '/api/v1/nodes', status: 504, message: 'etcd is slow' });
    h.server.faults.inject({ path: '/api/v1/nodes', status: 502, body: { hello: 'proxy' } });
    // Act
    const first = await failureOf(h.core.listNode());
    const second = await failureOf(h.core.listNode());
    // Assess
    expect(first.body).toMatchObject({ reason: 'Timeout', message: 'etcd is slow', code: 504 });
    expect(second).toMatchObject({ code: 502, body: { hello: 'proxy' } });
  });

  it('ignores requests of another method and can be cleared', async () => {
    // Prepare
    h.server.faults.inject({ method: 'DELETE', path: '/api/v1/nodes/n1', status: 500 });
    // Act
    const read = await h.core.readNode({ name: 'n1' });
    h.server.faults.clear();
    await h.core.deleteNode({ name: 'n1' });
    // Assess
    expect(read.metadata?.name).toBe('n1');
    expect(h.server.store.get('nodes', 'n1')).toBeUndefined();
  });
});

describe('the store', () => {
  it('tells listeners about every write', async () => {
    // Prepare
    const changes: StoreChange[] = [];
    const stop = h.server.store.onChange((change) => changes.push(change));
    // Act
    await h.core.patchNode({
      name: 'n1',
      body: [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }],
    });
    await h.core.deleteNode({ name: 'n1' });
    stop();
    h.server.store.create('nodes', { metadata: { name: 'n2' } });
    // Assess
    expect(changes.map((c) => [c.type, c.resource, c.object.metadata])).toEqual([
      ['MODIFIED', 'nodes', expect.objectContaining({ name: 'n1', labels: { a: 'b' } })],
      ['DELETED', 'nodes', expect.objectContaining({ name: 'n1' })],
    ]);
  });

  it('refuses to seed a name that is taken', () => {
    // Act + Assess
    expect(() => h.server.store.create('nodes', { metadata: { name: 'n1' } })).toThrow(
      'nodes n1 already exists',
    );
  });
});
