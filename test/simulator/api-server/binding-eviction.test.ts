import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { expectFailure, failureOf, type Harness, podManifest, startHarness } from './harness.ts';

const NOW = new Date('2025-03-04T05:06:07Z');
let h: Harness;

afterEach(async () => {
  await h.server.close();
});

/** A pod as the kubelet leaves it: bound, Running, and Ready unless told otherwise. */
function seedRunningPod(name: string, labels: Record<string, string>, ready = true): void {
  h.server.store.create('pods', {
    metadata: { name, namespace: 'default', labels },
    spec: {
      nodeName: 'n1',
      containers: [{ name: 'app', image: 'app' }],
      terminationGracePeriodSeconds: 30,
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

function seedBudget(name: string, spec: JsonObject): void {
  h.server.store.create('poddisruptionbudgets', { metadata: { name, namespace: 'default' }, spec });
}

function evict(name: string, gracePeriodSeconds?: number) {
  return h.core.createNamespacedPodEviction({
    namespace: 'default',
    name,
    body: {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace: 'default' },
      ...(gracePeriodSeconds === undefined ? {} : { deleteOptions: { gracePeriodSeconds } }),
    },
  });
}

describe('binding', () => {
  beforeEach(async () => {
    h = await startHarness({ now: () => NOW });
  });

  it('binds a pod to a node with a PodScheduled condition and the binding annotations', async () => {
    // Prepare
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    // Act
    await h.core.createNamespacedPodBinding({
      namespace: 'default',
      name: 'p1',
      body: {
        metadata: { name: 'p1', annotations: { 'example.com/by': 'scheduler' } },
        target: { kind: 'Node', name: 'n1' },
      },
    });
    // Assess
    const pod = await h.core.readNamespacedPod({ namespace: 'default', name: 'p1' });
    expect(pod.spec?.nodeName).toBe('n1');
    expect(pod.metadata?.annotations).toEqual({ 'example.com/by': 'scheduler' });
    expect(h.server.store.get('pods', 'p1', 'default')?.status).toMatchObject({
      conditions: [
        {
          type: 'PodScheduled',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2025-03-04T05:06:07Z',
        },
      ],
    });
    expect(
      h.server.requests.matching('POST', '/api/v1/namespaces/default/pods/p1/binding')[0]?.status,
    ).toBe(201);
  });

  it('answers a binding of a bound pod with 409 Conflict on pods/binding', async () => {
    // Prepare
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('p1', {}, { nodeName: 'n1' }),
    });
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPodBinding({
        namespace: 'default',
        name: 'p1',
        body: { metadata: { name: 'p1' }, target: { name: 'n2' } },
      }),
    );
    // Assess
    expectFailure(failure, 409, {
      message:
        'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"',
      reason: 'Conflict',
      details: { name: 'p1', kind: 'pods/binding' },
    });
  });

  it('answers a binding without a target with the 500 its validation error becomes', async () => {
    // Prepare
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPodBinding({
        namespace: 'default',
        name: 'p1',
        body: { metadata: { name: 'p1' }, target: {} },
      }),
    );
    // Assess
    expect(failure.code).toBe(500);
    expect(failure.body).toMatchObject({
      status: 'Failure',
      message: 'target.name: Required value',
      code: 500,
    });
    expect(failure.body).not.toHaveProperty('reason');
  });

  it('answers a binding of a missing pod with 404 NotFound', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPodBinding({
        namespace: 'default',
        name: 'p9',
        body: { metadata: { name: 'p9' }, target: { name: 'n1' } },
      }),
    );
    // Assess
    expect(failure.body).toMatchObject({ code: 404, message: 'pods "p9" not found' });
  });
});

describe('eviction', () => {
  beforeEach(async () => {
    h = await startHarness({ now: () => NOW });
  });

  it('evicts a pod no budget covers with a 201 Success Status, honouring the grace period', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web' });
    // Act
    await evict('p1', 10);
    // Assess
    const request = h.server.requests.matching(
      'POST',
      '/api/v1/namespaces/default/pods/p1/eviction',
    )[0];
    expect(request?.status).toBe(201);
    expect(request?.body).toEqual({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p1', namespace: 'default' },
      deleteOptions: { gracePeriodSeconds: 10 },
    });
    expect(h.server.store.get('pods', 'p1', 'default')?.metadata).toMatchObject({
      deletionTimestamp: '2025-03-04T05:06:17Z',
      deletionGracePeriodSeconds: 10,
    });
  });

  it('answers 201 with the body the real server sends', async () => {
    // Prepare
    seedRunningPod('p1', {});
    // Act
    const response = await fetch(`${h.server.url}/api/v1/namespaces/default/pods/p1/eviction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1' } }),
    });
    // Assess
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
  });

  it('removes a pending pod at once without consulting budgets', async () => {
    // Prepare
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('p1', { app: 'web' }),
    });
    seedBudget('web', { minAvailable: 5, selector: { matchLabels: { app: 'web' } } });
    // Act
    await evict('p1');
    // Assess
    expect(h.server.store.get('pods', 'p1', 'default')).toBeUndefined();
  });

  it('answers 429 TooManyRequests with the DisruptionBudget cause when the budget is spent', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web' });
    seedRunningPod('p2', { app: 'web' });
    seedBudget('web-pdb', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    // Act
    const failure = await failureOf(evict('p1'));
    // Assess
    expectFailure(failure, 429, {
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently',
          },
        ],
      },
    });
    expect(failure.headers['retry-after']).toBeUndefined();
    expect(h.server.store.get('pods', 'p1', 'default')?.metadata).not.toHaveProperty(
      'deletionTimestamp',
    );
  });

  it('allows as many evictions as maxUnavailable, counting terminating pods as disrupted', async () => {
    // Prepare
    for (const name of ['p1', 'p2', 'p3']) seedRunningPod(name, { app: 'web' });
    seedBudget('web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    // Act
    await evict('p1');
    const budget = await h.policy.readNamespacedPodDisruptionBudget({
      namespace: 'default',
      name: 'web',
    });
    const failure = await failureOf(evict('p2'));
    // Assess
    expect(budget.status).toMatchObject({
      expectedPods: 3,
      currentHealthy: 2,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
    });
    expect(failure.code).toBe(429);
  });

  it('scales a percentage budget over the matching pods, rounding up', async () => {
    // Prepare
    for (const name of ['p1', 'p2', 'p3']) seedRunningPod(name, { app: 'web' });
    seedBudget('web', { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } });
    // Act
    const budget = await h.policy.readNamespacedPodDisruptionBudget({
      namespace: 'default',
      name: 'web',
    });
    // Assess
    expect(budget.status).toMatchObject({
      expectedPods: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
      observedGeneration: 1,
    });
    expect(budget.status?.conditions?.[0]).toMatchObject({
      type: 'DisruptionAllowed',
      status: 'True',
      reason: 'SufficientPods',
    });
  });

  it('lets an unready pod go while the budget is otherwise met', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web' });
    seedRunningPod('p2', { app: 'web' });
    seedRunningPod('sick', { app: 'web' }, false);
    seedBudget('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    // Act
    await evict('sick');
    // Assess
    expect(h.server.store.get('pods', 'sick', 'default')?.metadata).toHaveProperty(
      'deletionTimestamp',
    );
  });

  it('refuses a pod two budgets cover with a 500', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web', tier: 'front' });
    seedBudget('by-app', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    seedBudget('by-tier', { maxUnavailable: 1, selector: { matchLabels: { tier: 'front' } } });
    // Act
    const failure = await failureOf(evict('p1'));
    // Assess
    expectFailure(failure, 500, {
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    });
  });

  it('answers an eviction of a missing pod with 404 NotFound', async () => {
    // Act
    const failure = await failureOf(evict('p9'));
    // Assess
    expect(failure.body).toMatchObject({ code: 404, message: 'pods "p9" not found' });
  });
});

describe('eviction without the disruption controller', () => {
  beforeEach(async () => {
    h = await startHarness({ now: () => NOW, disruptionController: false });
  });

  it('answers 429 with Retry-After while a budget has not been processed', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web' });
    seedBudget('web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    // Act
    const failure = await failureOf(evict('p1'));
    // Assess
    expect(failure.code).toBe(429);
    expect(failure.headers['retry-after']).toBe('10');
    expect(failure.body.details).toEqual({
      causes: [
        {
          reason: 'DisruptionBudget',
          message: 'The disruption budget web is still being processed by the server.',
        },
      ],
      retryAfterSeconds: 10,
    });
  });

  it('debits the stored budget status it is given', async () => {
    // Prepare
    seedRunningPod('p1', { app: 'web' });
    seedBudget('web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    const budget = h.server.store.get('poddisruptionbudgets', 'web', 'default') ?? {};
    h.server.store.update('poddisruptionbudgets', {
      ...budget,
      status: {
        observedGeneration: 1,
        disruptionsAllowed: 1,
        currentHealthy: 1,
        desiredHealthy: 0,
        expectedPods: 1,
      },
    });
    // Act
    await evict('p1');
    // Assess
    expect(h.server.store.get('poddisruptionbudgets', 'web', 'default')?.status).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 0,
      expectedPods: 1,
      disruptedPods: { p1: '2025-03-04T05:06:07Z' },
    });
  });
});
