import { Watch } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import type { FakeApiServerOptions } from '../../../simulator/api-server/server.ts';
import { failureOf, failureStatus, type Harness, podManifest, startHarness } from './harness.ts';

let h: Harness | undefined;
let nowMs = Date.parse('2026-11-20T09:00:00Z');

async function start(options: FakeApiServerOptions = {}): Promise<Harness> {
  nowMs = Date.parse('2026-11-20T09:00:00Z');
  h = await startHarness({ now: () => new Date(nowMs), ...options });
  return h;
}

afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

interface Seen {
  readonly type: string;
  readonly name: string | undefined;
  readonly resourceVersion: string | undefined;
  readonly object: Record<string, unknown>;
}

interface Watched {
  readonly events: Seen[];
  /** Settles when the server ends the watch (null) or it fails. */
  readonly ended: Promise<unknown>;
  /** Resolves once this many events came. */
  readonly received: (count: number) => Promise<Seen[]>;
  readonly stop: () => void;
}

/** A watch through client-node's Watch, as the adapter opens one. */
async function watch(
  server: Harness['server'],
  path: string,
  query: Record<string, string | number | boolean>,
): Promise<Watched> {
  const events: Seen[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let end: (error: unknown) => void = () => undefined;
  const ended = new Promise<unknown>((resolve) => {
    end = resolve;
  });
  const controller = await new Watch(kubeConfigFor(server.url)).watch(
    path,
    query,
    (type, object: { metadata?: { name?: string; resourceVersion?: string } }) => {
      const metadata = object.metadata ?? {};
      events.push({ type, name: metadata.name, resourceVersion: metadata.resourceVersion, object });
      for (const w of waiting.filter((x) => events.length >= x.count)) w.resolve();
    },
    (error) => end(error),
  );
  const received = (count: number) =>
    new Promise<Seen[]>((resolve) => {
      if (events.length >= count) resolve(events);
      else waiting.push({ count, resolve: () => resolve(events) });
    });
  return { events, ended, received, stop: () => controller.abort() };
}

const brief = (events: readonly Seen[]) => events.map((e) => `${e.type} ${e.name}`);

describe('watch', () => {
  it('from no resourceVersion sends what exists as ADDED, then each change', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    const watched = await watch(server, '/api/v1/pods', {});
    await watched.received(1);
    // Act
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('b') });
    await core.patchNamespacedPod({
      namespace: 'default',
      name: 'a',
      body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }],
    });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'b', gracePeriodSeconds: 0 });
    const events = await watched.received(4);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b']);
    expect(events[0]?.object).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });
    expect(events[3]?.resourceVersion).toBe(server.store.resourceVersion);
  });

  it('from a list resourceVersion sends only the changes after it, in order', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    const list = await core.listPodForAllNamespaces();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('b') });
    await core.deleteNamespacedPod({ namespace: 'default', name: 'a', gracePeriodSeconds: 0 });
    // Act
    const watched = await watch(server, '/api/v1/pods', {
      resourceVersion: list.metadata?.resourceVersion ?? '',
    });
    const events = await watched.received(2);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED b', 'DELETED a']);
    expect(events.map((e) => Number(e.resourceVersion))).toEqual(
      [...events.map((e) => Number(e.resourceVersion))].sort((x, y) => x - y),
    );
  });

  it('judges each change by its selectors before and after it', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('a', { app: 'web' }),
    });
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('b') });
    const from = server.store.resourceVersion;
    const watched = await watch(server, '/api/v1/pods', {
      resourceVersion: from,
      labelSelector: 'app=web',
      fieldSelector: 'status.phase!=Succeeded',
    });
    // Act
    await core.patchNamespacedPodStatus({
      namespace: 'default',
      name: 'a',
      body: [{ op: 'replace', path: '/status/phase', value: 'Succeeded' }],
    });
    const finished = server.store.resourceVersion;
    await core.patchNamespacedPod({
      namespace: 'default',
      name: 'b',
      body: [{ op: 'add', path: '/metadata/labels', value: { app: 'web' } }],
    });
    const events = await watched.received(2);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['DELETED a', 'ADDED b']);
    expect(events[0]?.resourceVersion).toBe(finished);
    expect(events[0]?.object).toMatchObject({ status: { phase: 'Pending' } });
  });

  it('in a namespace sees only that namespace', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    const watched = await watch(server, '/api/v1/namespaces/team-a/pods', {
      resourceVersion: server.store.resourceVersion,
    });
    // Act
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    await core.createNamespacedPod({ namespace: 'team-a', body: podManifest('b') });
    const events = await watched.received(1);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED b']);
  });

  it('keeps changes younger than 75 seconds beyond its size, and answers older ones 410 Expired', async () => {
    // Prepare
    const { server, core } = await start({ watchCacheSize: 2 });
    const from = server.store.resourceVersion;
    for (const name of ['a', 'b', 'c', 'd']) {
      await core.createNamespacedPod({ namespace: 'default', body: podManifest(name) });
    }
    const fresh = await watch(server, '/api/v1/pods', { resourceVersion: from });
    const kept = await fresh.received(4);
    fresh.stop();
    nowMs += 76_000;
    for (const name of ['e', 'f', 'g', 'h', 'i']) {
      await core.createNamespacedPod({ namespace: 'default', body: podManifest(name) });
    }
    // Act
    const stale = await watch(server, '/api/v1/pods', { resourceVersion: from });
    const error = await stale.ended;
    // Assess
    expect(brief(kept)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'ADDED d']);
    expect(error).toBeNull();
    expect(stale.events.map((e) => e.type)).toEqual(['ERROR']);
    expect(stale.events[0]?.object).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Expired',
      code: 410,
      message: expect.stringMatching(new RegExp(`^too old resource version: ${from} \\(\\d+\\)$`)),
    });
  });

  it('ends at its timeoutSeconds', async () => {
    // Prepare
    const { server } = await start();
    const started = Date.now();
    // Act
    const watched = await watch(server, '/api/v1/nodes', {
      resourceVersion: server.store.resourceVersion,
      timeoutSeconds: 1,
    });
    const error = await watched.ended;
    // Assess
    expect(error).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(watched.events).toEqual([]);
  });

  it('sends a bookmark with the current resourceVersion 2 seconds before its timeout', async () => {
    // Prepare
    const { server, core } = await start();
    const from = server.store.resourceVersion;
    const watched = await watch(server, '/api/v1/nodes', {
      resourceVersion: from,
      timeoutSeconds: 3,
      allowWatchBookmarks: true,
    });
    // Act
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    const events = await watched.received(1);
    watched.stop();
    // Assess
    expect(events.map((e) => e.type)).toEqual(['BOOKMARK']);
    expect(events[0]?.resourceVersion).toBe(server.store.resourceVersion);
    expect(events[0]?.object).toMatchObject({ kind: 'Node', apiVersion: 'v1' });
  });

  it.each([
    [{ resourceVersion: 'abc' }, /^resourceVersion: Invalid value: "abc"/],
    [{ fieldSelector: 'spec.unknown=x' }, /^field label not supported: spec.unknown$/],
  ])('answers a bad query %j with 400 BadRequest', async (query, message) => {
    // Prepare
    const { core } = await start();
    // Act
    const failure = await failureOf(core.listPodForAllNamespaces({ watch: true, ...query }));
    // Assess
    expect(failure.code).toBe(400);
    expect(failure.body).toMatchObject({
      reason: 'BadRequest',
      message: expect.stringMatching(message),
    });
  });

  it('streams the current state, ends it with a bookmark, then sends each change (sendInitialEvents)', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    const from = server.store.resourceVersion;
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('b') });
    const stateAt = server.store.resourceVersion;
    const watched = await watch(server, '/api/v1/pods', {
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      resourceVersion: from,
      allowWatchBookmarks: true,
    });
    await watched.received(3);
    // Act
    await core.deleteNamespacedPod({ namespace: 'default', name: 'a', gracePeriodSeconds: 0 });
    const events = await watched.received(4);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED a', 'ADDED b', 'BOOKMARK undefined', 'DELETED a']);
    expect(events[2]?.resourceVersion).toBe(stateAt);
    expect(events[2]?.object).toMatchObject({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
  });

  it('sends a change stored while it streams a large state after that state and its bookmark', async () => {
    // Prepare
    const { server, core } = await start();
    const names = Array.from({ length: 600 }, (_, i) => `p-${String(i).padStart(3, '0')}`);
    for (const name of names)
      server.store.create('pods', {
        ...podManifest(name),
        metadata: { name, namespace: 'default' },
      });
    const watched = await watch(server, '/api/v1/pods', {
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
    });
    // Act
    await core.deleteNamespacedPod({ namespace: 'default', name: 'p-000', gracePeriodSeconds: 0 });
    const events = await watched.received(602);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual([
      ...names.map((name) => `ADDED ${name}`),
      'BOOKMARK undefined',
      'DELETED p-000',
    ]);
  });

  it('streams the state from no resourceVersion, ended by the bookmark when bookmarks are allowed', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    // Act
    const watched = await watch(server, '/api/v1/pods', { allowWatchBookmarks: true });
    const events = await watched.received(2);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED a', 'BOOKMARK undefined']);
    expect(events[1]?.object).toMatchObject({
      metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
  });

  it('sends only the changes after its resourceVersion without sendInitialEvents', async () => {
    // Prepare
    const { server, core } = await start();
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('a') });
    const from = server.store.resourceVersion;
    await core.createNamespacedPod({ namespace: 'default', body: podManifest('b') });
    // Act
    const watched = await watch(server, '/api/v1/pods', {
      sendInitialEvents: false,
      resourceVersionMatch: 'NotOlderThan',
      resourceVersion: from,
      allowWatchBookmarks: true,
    });
    const events = await watched.received(1);
    watched.stop();
    // Assess
    expect(brief(events)).toEqual(['ADDED b']);
  });

  it('answers a streamed list not older than a revision the store has not reached with 504', async () => {
    // Prepare
    const { server } = await start();
    const ahead = Number(server.store.resourceVersion) + 5;
    // Act
    const watched = await watch(server, '/api/v1/pods', {
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      resourceVersion: ahead,
      allowWatchBookmarks: true,
    });
    const error = await watched.ended;
    // Assess
    expect(error).toBeNull();
    expect(watched.events.map((e) => e.object)).toEqual([
      failureStatus(504, {
        reason: 'Timeout',
        message: `Timeout: Too large resource version: ${ahead}, current: ${server.store.resourceVersion}`,
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
      }),
    ]);
  });

  it.each([
    [
      { sendInitialEvents: true },
      {},
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ],
    [
      { resourceVersionMatch: 'NotOlderThan', resourceVersion: '1' },
      {},
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'Exact' },
      {},
      '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' },
      { watchList: false },
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    ],
  ])('answers the watch options %j (server %j) with 422 Invalid', async (query, options, cause) => {
    // Prepare
    const { core } = await start(options);
    // Act
    const failure = await failureOf(core.listPodForAllNamespaces({ watch: true, ...query }));
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body).toMatchObject({
      reason: 'Invalid',
      message: `ListOptions.meta.k8s.io "" is invalid: ${cause}`,
      details: { group: 'meta.k8s.io', kind: 'ListOptions' },
    });
  });
});
