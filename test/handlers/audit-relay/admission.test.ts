/**
 * The admission wake as kube-apiserver calls it through API Gateway: every AdmissionReview is
 * answered allowed with its uid and nothing else, pods created pending, pods newly unschedulable
 * and nodes deleted become wakes, a burst becomes at most two wakes a window however many
 * containers it reaches, and a call without the token is a 404 that wakes nothing. A forged call
 * with the token can only cause a wake.
 */
import { describe, expect, it } from 'vitest';
import { makeAdmissionHandler } from '../../../functions/handlers/audit-relay/admission.ts';
import type { WakeTokens } from '../../../functions/handlers/audit-relay/path-token.ts';
import type { WakeWindowStore } from '../../../functions/ports/state-store.ts';
import type { Wake } from '../../../functions/ports/wake.ts';
import { MemoryWakeWindowStore } from '../../../simulator/memory/memory-wake-window-store.ts';
import { admissionEvent } from '../../../simulator/run/lambda-events.ts';
import { context, fixture } from './support.ts';

const CURRENT = 'Zq4H0vX9s2LmP7aR1cT8yB3nK6eW5jU0dF2gQ9hV4iO7';
const PREVIOUS = 'Pp0Ll9Kk8Jj7Hh6Gg5Ff4Dd3Ss2Aa1Qq0Ww9Ee8Rr7Tt6';

class DelayRecordingWaker {
  readonly wakes: { wake: Wake; delaySeconds: number }[] = [];
  failWith: Error | undefined;

  async wake(wake: Wake, delaySeconds = 0): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    this.wakes.push({ wake, delaySeconds });
  }
}

/** The cluster's window, its turns counted; it refuses them while `failWith` is set. */
class CountingWindowStore implements WakeWindowStore {
  readonly #store = new MemoryWakeWindowStore();
  turns = 0;
  failWith: Error | undefined;

  async takeTurn(now: Date, windowMs: number) {
    this.turns += 1;
    if (this.failWith !== undefined) throw this.failWith;
    return this.#store.takeTurn(now, windowMs);
  }
}

/** What the containers of one deployment share: the window, the queue and the time. */
interface Deployment {
  readonly waker: DelayRecordingWaker;
  readonly clock: { ms: number };
  readonly store: CountingWindowStore;
}

interface RelayOptions {
  readonly tokens?: WakeTokens;
  /** Another container's deployment, for a second container of it. */
  readonly beside?: Deployment;
}

/** One relay container; `beside` makes a second one of the same deployment. */
function relay({ tokens = { current: CURRENT }, beside }: RelayOptions = {}) {
  const waker = beside?.waker ?? new DelayRecordingWaker();
  const clock = beside?.clock ?? { ms: 1_795_000_000_000 };
  const store = beside?.store ?? new CountingWindowStore();
  const handler = makeAdmissionHandler({
    tokens: async () => tokens,
    state: { wakeWindow: store },
    waker,
    now: () => clock.ms,
  });
  const call = async (body: string, token = CURRENT) => {
    const response = await handler(admissionEvent(body, token), context());
    return { status: response.statusCode, body: JSON.parse(response.body ?? '{}') };
  };
  return { waker, call, clock, store };
}

/** A review of the fixture with its object changed, as another call would carry it. */
function review(name: string, change: (request: Record<string, any>) => void): string {
  const parsed = JSON.parse(fixture(name));
  change(parsed.request);
  return JSON.stringify(parsed);
}

describe('the admission wake', () => {
  it.each([
    ['admission-pod-create.json', '705ab4f5-6393-11e8-b7cc-42010a800002', '1 pod created'],
    [
      'admission-pod-unschedulable.json',
      '0f8a2c1e-9d4b-4e7a-b3c5-6d7e8f9a0b1c',
      '1 pod unschedulable',
    ],
    ['admission-node-delete.json', '3c9e1b7a-2f6d-4a8c-9e0b-1d2c3b4a5f6e', '1 node deleted'],
  ])(
    'answers %s allowed, with its uid and nothing else, and wakes the controller',
    async (name, uid, reason) => {
      // Prepare
      const { waker, call } = relay();

      // Act
      const answer = await call(fixture(name));

      // Assess
      expect(answer).toEqual({
        status: 200,
        body: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true },
        },
      });
      expect(waker.wakes).toEqual([{ wake: { source: 'admission', reason }, delaySeconds: 0 }]);
    },
  );

  // Each case is the fixture's request with some fields replaced, from its own fields.
  it.each([
    [
      'a pod created on a node already',
      'admission-pod-create.json',
      (r: any) => ({
        object: { ...r.object, spec: { ...r.object.spec, nodeName: 'ip-10-0-1-17' } },
      }),
    ],
    [
      'a status update of a pod already unschedulable',
      'admission-pod-unschedulable.json',
      (r: any) => ({ oldObject: r.object }),
    ],
    [
      'a status update that binds nothing and marks nothing',
      'admission-pod-unschedulable.json',
      (r: any) => ({ object: r.oldObject }),
    ],
    [
      'a node created',
      'admission-node-delete.json',
      (r: any) => ({ operation: 'CREATE', object: r.oldObject, oldObject: null }),
    ],
    [
      'a pod deleted',
      'admission-pod-create.json',
      (r: any) => ({ operation: 'DELETE', oldObject: r.object, object: null }),
    ],
    [
      'a ConfigMap created',
      'admission-pod-create.json',
      () => ({ resource: { group: '', version: 'v1', resource: 'configmaps' } }),
    ],
  ])('answers %s allowed and wakes nothing', async (_, name, replaced) => {
    // Prepare
    const { waker, call } = relay();

    // Act
    const answer = await call(review(name, (r) => Object.assign(r, replaced(r))));

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.response).toEqual({ uid: expect.any(String), allowed: true });
    expect(waker.wakes).toEqual([]);
  });

  it('turns a burst into one wake now and one at the end of the window', async () => {
    // Prepare
    const { waker, call, clock } = relay();
    const body = fixture('admission-pod-create.json');

    // Act: 300 pods in 400 ms, then one more after the window
    for (let i = 0; i < 300; i += 1) {
      await call(body);
      clock.ms += 1;
    }
    clock.ms += 1000;
    await call(body);

    // Assess
    expect(waker.wakes.map((w) => w.delaySeconds)).toEqual([0, 1, 0]);
  });

  it('turns a burst spread over two containers into the same two wakes', async () => {
    // Prepare
    const first = relay();
    const second = relay({ beside: first });
    const body = fixture('admission-pod-create.json');

    // Act: 300 pods in 300 ms, every other one to each container, then one more after the window
    for (let i = 0; i < 300; i += 1) {
      await (i % 2 === 0 ? first : second).call(body);
      first.clock.ms += 1;
    }
    first.clock.ms += 1000;
    await second.call(body);

    // Assess
    expect(first.waker.wakes.map((w) => w.delaySeconds)).toEqual([0, 1, 0]);
  });

  it('covers the calls of a window whose delayed wake it knows is taken without the table', async () => {
    // Prepare
    const { call, clock, store } = relay();
    const body = fixture('admission-pod-create.json');

    // Act: two turns (the wake now, the delayed one), then 98 calls within the window
    for (let i = 0; i < 100; i += 1) {
      await call(body);
      clock.ms += 5;
    }

    // Assess
    expect(store.turns).toBe(2);
  });

  it('keeps a window of its own while the table cannot be reached', async () => {
    // Prepare
    const { waker, call, clock, store } = relay();
    store.failWith = Object.assign(new Error('throttled'), { name: 'ThrottledError' });
    const body = fixture('admission-pod-create.json');

    // Act: a burst, then a call after the window, with the table still failing
    for (let i = 0; i < 50; i += 1) {
      await call(body);
      clock.ms += 10;
    }
    clock.ms += 1000;
    const after = await call(body);

    // Assess: the two wakes of a window, and the table asked once a window
    expect(after.body.response.allowed).toBe(true);
    expect(waker.wakes.map((w) => w.delaySeconds)).toEqual([0, 1, 0]);
    expect(store.turns).toBe(2);
  });

  it('answers allowed even when the wake fails, and the window’s next turn still wakes', async () => {
    // Prepare
    const { waker, call } = relay();
    waker.failWith = Object.assign(new Error('throttled'), { name: 'ThrottledError' });

    // Act
    const failed = await call(fixture('admission-pod-create.json'));
    waker.failWith = undefined;
    await call(fixture('admission-pod-create.json'));

    // Assess: the wake that failed was the window's first; the next call takes its delayed one
    expect(failed.body.response.allowed).toBe(true);
    expect(waker.wakes.map((w) => w.delaySeconds)).toEqual([1]);
  });

  it('wakes at once on the next call when both of the window’s wakes failed', async () => {
    // Prepare
    const { waker, call } = relay();
    waker.failWith = Object.assign(new Error('throttled'), { name: 'ThrottledError' });

    // Act
    await call(fixture('admission-pod-create.json'));
    await call(fixture('admission-pod-create.json'));
    waker.failWith = undefined;
    await call(fixture('admission-pod-create.json'));
    await call(fixture('admission-pod-create.json'));

    // Assess: the third call, which the window covers, sends the wake again; the fourth does not
    expect(waker.wakes.map((w) => w.delaySeconds)).toEqual([0]);
  });

  it('accepts the previous token while a rotation is under way', async () => {
    // Prepare
    const { waker, call } = relay({ tokens: { current: CURRENT, previous: PREVIOUS } });

    // Act
    const answer = await call(fixture('admission-node-delete.json'), PREVIOUS);

    // Assess
    expect(answer.status).toBe(200);
    expect(waker.wakes).toHaveLength(1);
  });

  it.each([
    ['a wrong token', 'not-the-token-but-just-as-long-as-the-real-one-is'],
    ['the token with a trailing character', `${CURRENT}x`],
    ['the previous token once the rotation ended', PREVIOUS],
    ['an empty token', ''],
  ])('answers %s with 404 before reading the body, and wakes nothing', async (_, token) => {
    // Prepare
    const { waker, call } = relay();

    // Act
    const answer = await call('this is not JSON', token);

    // Assess
    expect(answer).toEqual({ status: 404, body: { message: 'Not Found' } });
    expect(waker.wakes).toEqual([]);
  });

  it.each([
    ['a body that is not JSON', '{"kind": "AdmissionReview",', 'body is not JSON'],
    [
      'a v1beta1 review',
      '{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{}}',
      'apiVersion: expected "admission.k8s.io/v1"',
    ],
    [
      'an operation Kubernetes does not have',
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'u',
          operation: 'PATCH',
          resource: { group: '', version: 'v1', resource: 'pods' },
        },
      }),
      'request.operation: Invalid option: expected one of "CREATE"|"UPDATE"|"DELETE"|"CONNECT"',
    ],
  ])('refuses %s with 400 naming the problem, and wakes nothing', async (_, body, error) => {
    // Prepare
    const { waker, call } = relay();

    // Act
    const answer = await call(body);

    // Assess
    expect(answer).toEqual({ status: 400, body: { error } });
    expect(waker.wakes).toEqual([]);
  });

  it('can do no more with a forged review than wake the controller', async () => {
    // Prepare: a caller holding the token asks to deny, patch and warn
    const { waker, call } = relay();
    const forged = review('admission-pod-create.json', (r) => {
      r.uid = 'forged';
      r.dryRun = true;
      r.object.metadata.annotations = { patch: '[{"op":"remove","path":"/spec"}]' };
    });

    // Act
    const answer = await call(forged);

    // Assess: the same answer as any call, and one wake that carries no work
    expect(answer.body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'forged', allowed: true },
    });
    expect(waker.wakes).toEqual([
      { wake: { source: 'admission', reason: '1 pod created' }, delaySeconds: 0 },
    ]);
  });
});
