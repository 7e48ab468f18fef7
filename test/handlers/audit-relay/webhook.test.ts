/**
 * The relay's webhook as kube-apiserver's audit backend calls it through API Gateway: bad
 * tokens, oversized and malformed bodies are refused with the right status and wake nothing;
 * EventLists that matter send exactly one wake, the rest none.
 */
import { describe, expect, it } from 'vitest';
import { makeWebhookHandler } from '../../../functions/handlers/audit-relay/handler.ts';
import { context, fixture, post, RecordingWaker, TOKEN } from './support.ts';

function relay(maxBodyBytes?: number) {
  const waker = new RecordingWaker();
  let tokenReads = 0;
  const handler = makeWebhookHandler({
    token: async () => {
      tokenReads += 1;
      return TOKEN;
    },
    waker,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });
  return { waker, handler, tokenReads: () => tokenReads };
}

describe('the audit webhook', () => {
  it('wakes the controller once for pods kube-scheduler marked Unschedulable', async () => {
    const { waker, handler } = relay();
    const response = await handler(post(fixture('pod-unschedulable.json')), context());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body ?? '')).toEqual({ events: 1, relevant: 1, woke: true });
    expect(waker.wakes).toEqual([{ source: 'audit', reason: '1 pod unschedulable' }]);
  });

  it('wakes for created pods and for node changes, naming what happened', async () => {
    const { waker, handler } = relay();
    await handler(post(fixture('pod-create.json')), context());
    await handler(post(fixture('nodes.json')), context());
    expect(waker.wakes.map((w) => w.reason)).toEqual([
      '1 pod created',
      '1 node updated, 1 node deleted',
    ]);
  });

  it('answers 200 and wakes nothing for bindings, reads, refused requests and exec', async () => {
    const { waker, handler } = relay();
    const response = await handler(post(fixture('no-wake.json')), context());
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body ?? '')).toEqual({ events: 4, relevant: 0, woke: false });
    expect(waker.wakes).toEqual([]);
  });

  it('takes a duplicated EventList as one more harmless wake', async () => {
    const { waker, handler } = relay();
    const body = fixture('pod-unschedulable.json');
    expect((await handler(post(body), context())).statusCode).toBe(200);
    expect((await handler(post(body), context())).statusCode).toBe(200);
    expect(waker.wakes).toHaveLength(2);
  });

  it('reads a base64-encoded body as API Gateway passes binary payloads', async () => {
    const { waker, handler } = relay();
    const body = Buffer.from(fixture('pod-create.json')).toString('base64');
    const response = await handler({ ...post(body), isBase64Encoded: true }, context());
    expect(response.statusCode).toBe(200);
    expect(waker.wakes).toHaveLength(1);
  });

  it.each([
    ['no Authorization header', { authorization: '' }],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['the token as Basic credentials', { authorization: `Basic ${TOKEN}` }],
    ['the token with a trailing character', { authorization: `Bearer ${TOKEN}x` }],
  ])('refuses %s with 401 before reading the body', async (_, headers) => {
    const { waker, handler } = relay();
    const response = await handler(post('this is not JSON', headers), context());
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body ?? '')).toEqual({ error: 'missing or wrong bearer token' });
    expect(waker.wakes).toEqual([]);
  });

  it('refuses a body over the limit with 413', async () => {
    const { waker, handler } = relay(1024);
    const response = await handler(post(fixture('pod-create.json')), context());
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body ?? '').error).toMatch(/bytes is over the 1024-byte limit/);
    expect(waker.wakes).toEqual([]);
  });

  it.each([
    ['{"kind": "EventList",', 'body is not JSON'],
    ['{"kind":"PodList","apiVersion":"v1","items":[]}', 'kind: expected "EventList"'],
    [
      '{"kind":"EventList","apiVersion":"v1","items":[]}',
      'apiVersion: expected an audit.k8s.io API version',
    ],
    [
      '{"kind":"EventList","apiVersion":"audit.k8s.io/v1","items":[{"verb":"create","stage":"ResponseComplete"},{"verb":7,"stage":"ResponseComplete"}]}',
      'items[1].verb: expected string, received number',
    ],
    [
      '{"kind":"EventList","apiVersion":"audit.k8s.io/v1","items":[{"stage":"ResponseComplete"}]}',
      'items[0].verb: is required (string)',
    ],
  ])('refuses %s with 400 naming the problem', async (body, error) => {
    const { waker, handler } = relay();
    const response = await handler(post(body), context());
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body ?? '')).toEqual({ error });
    expect(waker.wakes).toEqual([]);
  });
});
