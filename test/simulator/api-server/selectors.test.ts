import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../../simulator/api-server/field-selector.ts';
import { matchesLabels, parseLabelSelector } from '../../../simulator/api-server/label-selector.ts';
import { expectFailure, failureOf, type Harness, podManifest, startHarness } from './harness.ts';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.server.close();
});

async function seedPods(): Promise<void> {
  const pods: [string, Record<string, string>][] = [
    ['web-a', { app: 'web', tier: 'a' }],
    ['web-b', { app: 'web', tier: 'b', gpu: 'true' }],
    ['db-c', { app: 'db', tier: 'c' }],
    ['bare', {}],
  ];
  for (const [name, labels] of pods) {
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest(name, labels) });
  }
}

describe('label selectors', () => {
  it.each([
    ['app=web', ['web-a', 'web-b']],
    ['app==web', ['web-a', 'web-b']],
    ['app!=web', ['bare', 'db-c']],
    ['tier in (a, c)', ['db-c', 'web-a']],
    ['tier notin (a)', ['bare', 'db-c', 'web-b']],
    ['gpu', ['web-b']],
    ['!gpu', ['bare', 'db-c', 'web-a']],
    ['app=web,tier in (b)', ['web-b']],
    ['', ['bare', 'db-c', 'web-a', 'web-b']],
  ])('selects %j', async (selector, expected) => {
    // Prepare
    await seedPods();
    // Act
    const list = await h.core.listNamespacedPod({ namespace: 'default', labelSelector: selector });
    // Assess
    expect(list.items.map((p) => p.metadata?.name)).toEqual(expected);
  });

  it('answers a malformed selector with 400 BadRequest', async () => {
    // Act
    const failure = await failureOf(
      h.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app in (web' }),
    );
    // Assess
    expect(failure.code).toBe(400);
    expect(failure.body).toMatchObject({ reason: 'BadRequest' });
    expect(String(failure.body.message)).toMatch(/^unable to parse requirement: /);
  });

  it('reads numeric comparisons and empty values', () => {
    // Act
    const requirements = parseLabelSelector('size>2,name=');
    // Assess
    expect(requirements).toEqual([
      { key: 'size', operator: 'gt', values: ['2'] },
      { key: 'name', operator: 'in', values: [''] },
    ]);
    expect(matchesLabels({ size: '3', name: '' }, requirements)).toBe(true);
    expect(matchesLabels({ size: '2', name: '' }, requirements)).toBe(false);
  });
});

describe('field selectors', () => {
  async function seedScheduledPods(): Promise<void> {
    const store = h.server.store;
    store.create('pods', {
      metadata: { name: 'running', namespace: 'default' },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running' },
    });
    store.create('pods', {
      metadata: { name: 'done', namespace: 'default' },
      spec: { nodeName: 'n1' },
      status: { phase: 'Succeeded' },
    });
    store.create('pods', {
      metadata: { name: 'pending', namespace: 'default' },
      spec: {},
      status: { phase: 'Pending' },
    });
    store.create('pods', {
      metadata: { name: 'other', namespace: 'kube-system' },
      spec: { nodeName: 'n2' },
      status: { phase: 'Running' },
    });
  }

  it.each([
    ['spec.nodeName=n1,status.phase!=Succeeded', ['default/running']],
    ['spec.nodeName=', ['default/pending']],
    ['spec.nodeName==n2', ['kube-system/other']],
    ['status.phase=Running', ['default/running', 'kube-system/other']],
    ['metadata.name=done', ['default/done']],
    ['metadata.namespace=kube-system', ['kube-system/other']],
  ])('selects pods by %j across namespaces', async (selector, expected) => {
    // Prepare
    await seedScheduledPods();
    // Act
    const list = await h.core.listPodForAllNamespaces({ fieldSelector: selector });
    // Assess
    expect(list.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual(expected);
  });

  it('selects nodes by spec.unschedulable and metadata.name', async () => {
    // Prepare
    h.server.store.create('nodes', { metadata: { name: 'n1' }, spec: { unschedulable: true } });
    h.server.store.create('nodes', { metadata: { name: 'n2' }, spec: {} });
    // Act
    const cordoned = await h.core.listNode({ fieldSelector: 'spec.unschedulable=true' });
    const open = await h.core.listNode({ fieldSelector: 'spec.unschedulable=false' });
    const named = await h.core.listNode({ fieldSelector: 'metadata.name=n2' });
    // Assess
    expect(cordoned.items.map((n) => n.metadata?.name)).toEqual(['n1']);
    expect(open.items.map((n) => n.metadata?.name)).toEqual(['n2']);
    expect(named.items.map((n) => n.metadata?.name)).toEqual(['n2']);
  });

  it.each([
    ['pods', 'spec.foo=x'],
    ['nodes', 'status.phase=Ready'],
  ])('answers a field %s cannot be selected by with 400 BadRequest', async (resource, selector) => {
    // Act
    const call =
      resource === 'pods'
        ? h.core.listPodForAllNamespaces({ fieldSelector: selector })
        : h.core.listNode({ fieldSelector: selector });
    const failure = await failureOf(call);
    // Assess
    expectFailure(failure, 400, {
      message: `field label not supported: ${selector.split('=')[0]}`,
      reason: 'BadRequest',
    });
  });

  it('answers a term without an operator with 400 BadRequest', async () => {
    // Act
    const failure = await failureOf(h.core.listNode({ fieldSelector: 'metadata.name' }));
    // Assess
    expect(failure.body.message).toBe(
      "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
    );
  });

  it('unescapes commas and equals signs in values', () => {
    // Act
    const requirements = parseFieldSelector('metadata.name=a\\,b\\=c,status.phase!=x');
    // Assess
    expect(requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b=c' },
      { field: 'status.phase', operator: '!=', value: 'x' },
    ]);
  });

  it('receives the selectors exactly as the client encodes them', async () => {
    // Act
    await h.core.listNode({ labelSelector: 'karpenter.sh/nodepool=x', limit: 100 });
    await h.core.listPodForAllNamespaces({
      fieldSelector: 'spec.nodeName=n1,status.phase!=Succeeded',
    });
    // Assess
    expect(h.server.requests.entries.map((r) => [r.path, r.query])).toEqual([
      ['/api/v1/nodes', { labelSelector: 'karpenter.sh/nodepool=x', limit: '100' }],
      ['/api/v1/pods', { fieldSelector: 'spec.nodeName=n1,status.phase!=Succeeded' }],
    ]);
  });
});
