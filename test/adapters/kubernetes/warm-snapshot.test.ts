import { afterEach, describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { WarmSnapshot } from '../../../functions/adapters/kubernetes/warm-snapshot.ts';
import type { Cluster } from '../../../functions/ports/cluster.ts';
import {
  type FakeApiServer,
  type FakeApiServerOptions,
  type JsonObject,
  kubeConfigFor,
  startFakeApiServer,
} from '../../../simulator/api-server/index.ts';
import { closeAllowed, NOW, seedNode, seedPod, UNSCHEDULABLE } from './support.ts';

interface Warmed {
  readonly server: FakeApiServer;
  /** Keeps nodes and pods between snapshots; nothing races its catch-ups. */
  readonly warm: Cluster;
  /** Keeps nodes and pods too; a whole read races each catch-up, as deployed. */
  readonly racing: Cluster;
  /** Lists everything on every snapshot. */
  readonly cold: Cluster;
  /** Moves the server's clock, which ages the changes its watch cache keeps. */
  readonly advance: (ms: number) => void;
}

let current: FakeApiServer | undefined;

async function warmed(options: Omit<FakeApiServerOptions, 'now'> = {}): Promise<Warmed> {
  let nowMs = NOW.getTime();
  const server = await startFakeApiServer({ ...options, now: () => new Date(nowMs) });
  current = server;
  const kubeConfig = kubeConfigFor(server.url);
  // No list races a catch-up here, so what the watches do is what is seen.
  const warm = kubernetesClusterFrom(kubeConfig, {
    now: () => NOW,
    pageSize: 2,
    warm: new WarmSnapshot({ raceAfterMs: 60_000 }),
  });
  const racing = kubernetesClusterFrom(kubeConfig, { pageSize: 2, warm: new WarmSnapshot() });
  const cold = kubernetesClusterFrom(kubeConfig, { now: () => NOW, pageSize: 2 });
  return { server, warm, racing, cold, advance: (ms) => (nowMs += ms) };
}

afterEach(async () => {
  const server = current;
  current = undefined;
  if (server !== undefined) await closeAllowed(server);
});

/** Each request for the kind: a list, a watch, or a streamed list (a watch sending the state). */
function requestsFor(server: FakeApiServer, resource: 'nodes' | 'pods'): string[] {
  return server.requests.entries
    .filter((entry) => entry.path === `/api/v1/${resource}`)
    .map((entry) => {
      if (entry.query.watch !== 'true') return `list limit=${entry.query.limit}`;
      return entry.query.sendInitialEvents === 'true' ? 'stream' : 'watch';
    });
}

/** A server that does not stream lists, as one without the WatchList feature gate. */
const NO_STREAMS = { watchList: false } as const;

/** A pod bound to n1 that finishes, one that comes, and a node that goes. */
function changeTheCluster(server: FakeApiServer): void {
  const finished = server.store.get('pods', 'web-1', 'default');
  if (finished === undefined) throw new Error('web-1 was not seeded');
  server.store.update('pods', { ...finished, status: { phase: 'Succeeded' } });
  seedPod(server, 'web-3', { conditions: [UNSCHEDULABLE] });
  server.store.delete('nodes', 'n2');
}

/** Three nodes and three pods: more of each than the page size of 2, so both are watched. */
function seedCluster(server: FakeApiServer): void {
  for (const name of ['n1', 'n2', 'n3']) seedNode(server, name);
  seedPod(server, 'web-0', { nodeName: 'n3' });
  seedPod(server, 'web-1', { nodeName: 'n1' });
  seedPod(server, 'web-2', { nodeName: 'n3' });
}

describe('Class: WarmSnapshot', () => {
  it('reads, after changes, what a fresh list reads', async () => {
    // Prepare
    const { server, warm, cold } = await warmed();
    seedCluster(server);
    await warm.snapshot();
    changeTheCluster(server);
    // Act
    const caughtUp = await warm.snapshot();
    // Assess
    expect(caughtUp).toEqual(await cold.snapshot());
    expect(caughtUp.pods.map((pod) => pod.name)).toEqual(['web-0', 'web-2', 'web-3']);
    expect(caughtUp.nodes.map((node) => node.name)).toEqual(['n1', 'n3']);
  });

  it('catches nodes and pods up by watch instead of listing them again', async () => {
    // Prepare
    const { server, warm } = await warmed();
    seedCluster(server);
    await warm.snapshot();
    changeTheCluster(server);
    server.requests.clear();
    // Act
    await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'nodes')).toEqual(['list limit=1', 'watch']);
    expect(requestsFor(server, 'pods')).toEqual(['watch']);
    const [nodeWatch] = server.requests.matching('GET', '/api/v1/nodes').slice(-1);
    expect(nodeWatch?.query).toMatchObject({ timeoutSeconds: '1', allowWatchBookmarks: 'true' });
  });

  it('sends no watch when nothing in the cluster changed', async () => {
    // Prepare
    const { server, warm } = await warmed();
    seedCluster(server);
    const first = await warm.snapshot();
    server.requests.clear();
    // Act
    const again = await warm.snapshot();
    // Assess
    expect(again).toEqual(first);
    expect(requestsFor(server, 'nodes')).toEqual(['list limit=1']);
    expect(requestsFor(server, 'pods')).toEqual([]);
  });

  it('takes a watch the server ended at its timeout as caught up to the revision read before it', async () => {
    // Prepare
    const { server, warm } = await warmed();
    seedCluster(server);
    await warm.snapshot();
    server.store.create('namespaces', { metadata: { name: 'elsewhere' } });
    await warm.snapshot();
    server.requests.clear();
    // Act
    await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'nodes')).toEqual(['list limit=1']);
    expect(requestsFor(server, 'pods')).toEqual([]);
  });

  it('stops at the revision it read, and leaves a later change for the next pass', async () => {
    // Prepare
    const { server, warm, cold } = await warmed();
    seedCluster(server);
    await warm.snapshot();
    server.store.delete('pods', 'web-0', 'default');
    let late = false;
    // A pod comes after the pass read the cluster's revision, before its watch of pods is served.
    server.controlAccess({
      authenticate: async () => ({ name: 'tester', groups: [] }),
      authorize: ({ verb, resource }) => {
        if (verb === 'watch' && resource === 'pods' && !late) {
          late = true;
          seedPod(server, 'web-9', { nodeName: 'n1' });
        }
        return { allowed: true, reason: '' };
      },
    });
    // Act
    const read = await warm.snapshot();
    server.controlAccess(undefined);
    const next = await warm.snapshot();
    // Assess
    expect(late).toBe(true);
    expect(read.pods.map((pod) => pod.name)).toEqual(['web-1', 'web-2']);
    expect(next).toEqual(await cold.snapshot());
    expect(next.pods.map((pod) => pod.name)).toEqual(['web-1', 'web-2', 'web-9']);
  });

  it('races a list against a catch-up that takes longer than its last list did', async () => {
    // Prepare
    const { server, racing: warm, cold } = await warmed(NO_STREAMS);
    seedCluster(server);
    await warm.snapshot();
    server.store.create('namespaces', { metadata: { name: 'elsewhere' } });
    server.requests.clear();
    // Act
    const read = await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'pods')).toEqual(['watch', 'list limit=2', 'list limit=2']);
    expect(read).toEqual(await cold.snapshot());
  });

  it('lists a kind that fits in one page rather than watching it', async () => {
    // Prepare
    const { server, warm, cold } = await warmed(NO_STREAMS);
    seedCluster(server);
    await warm.snapshot();
    server.store.delete('pods', 'web-0', 'default');
    server.store.delete('nodes', 'n1');
    server.store.delete('nodes', 'n2');
    await warm.snapshot();
    seedNode(server, 'n4');
    seedPod(server, 'web-5', { nodeName: 'n4' });
    server.requests.clear();
    // Act
    const listed = await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'nodes')).toEqual(['list limit=1', 'list limit=2']);
    expect(requestsFor(server, 'pods')).toEqual(['list limit=2', 'list limit=2']);
    expect(listed).toEqual(await cold.snapshot());
  });

  it('lists again when the server no longer keeps the changes (410 Gone)', async () => {
    // Prepare
    const { server, warm, cold, advance } = await warmed({ watchCacheSize: 2, ...NO_STREAMS });
    seedCluster(server);
    await warm.snapshot();
    changeTheCluster(server);
    advance(120_000);
    // Past the changes a watch from the last read needs: the cache drops its stale ones first.
    for (let i = 4; i < 14; i++) seedPod(server, `web-${i}`, { nodeName: 'n1' });
    for (const name of ['n4', 'n5', 'n6']) seedNode(server, name);
    server.requests.clear();
    // Act
    const relisted = await warm.snapshot();
    // Assess
    // Thirteen pods, in seven pages of two.
    expect(requestsFor(server, 'pods')).toEqual(['watch', ...Array(7).fill('list limit=2')]);
    expect(relisted).toEqual(await cold.snapshot());
  });

  it('lists again when a catch-up watch fails', async () => {
    // Prepare
    const { server, warm, cold } = await warmed(NO_STREAMS);
    seedCluster(server);
    await warm.snapshot();
    changeTheCluster(server);
    server.faults.inject({ method: 'GET', path: '/api/v1/pods', status: 500 });
    server.requests.clear();
    // Act
    const relisted = await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'pods')).toEqual(['watch', 'list limit=2', 'list limit=2']);
    expect(relisted).toEqual(await cold.snapshot());
  });

  it('reads each kind whole by a streamed list where the server streams lists', async () => {
    // Prepare
    const { server, warm, cold } = await warmed();
    seedCluster(server);
    // Act
    const read = await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'nodes')).toEqual(['list limit=1', 'stream']);
    expect(requestsFor(server, 'pods')).toEqual(['stream']);
    const [stream] = server.requests.matching('GET', '/api/v1/pods');
    expect(stream?.query).toMatchObject({
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'true',
      resourceVersion: server.store.resourceVersion,
    });
    expect(read).toEqual(await cold.snapshot());
  });

  it('lists, from then on, when the server refuses to stream lists', async () => {
    // Prepare
    const { server, racing: warm, cold } = await warmed(NO_STREAMS);
    seedCluster(server);
    await warm.snapshot();
    const first = { nodes: requestsFor(server, 'nodes'), pods: requestsFor(server, 'pods') };
    changeTheCluster(server);
    server.requests.clear();
    // Act
    const read = await warm.snapshot();
    const then = [...requestsFor(server, 'nodes'), ...requestsFor(server, 'pods')];
    // Assess
    expect(first).toEqual({
      nodes: ['list limit=1', 'stream', 'list limit=2', 'list limit=2'],
      pods: ['stream', 'list limit=2', 'list limit=2'],
    });
    expect(then).not.toContain('stream');
    expect(read).toEqual(await cold.snapshot());
  });

  it('proves by a streamed list that a kind did not change, and keeps its objects', async () => {
    // Prepare
    const { server, racing: warm, cold } = await warmed();
    seedCluster(server);
    const first = await warm.snapshot();
    server.store.create('namespaces', { metadata: { name: 'elsewhere' } });
    server.requests.clear();
    // Act
    const read = await warm.snapshot();
    const requests = { nodes: requestsFor(server, 'nodes'), pods: requestsFor(server, 'pods') };
    server.requests.clear();
    await warm.snapshot();
    // Both kinds were left at the revision read: nothing is caught up the next time.
    const next = { nodes: requestsFor(server, 'nodes'), pods: requestsFor(server, 'pods') };
    // Assess
    expect(requests).toEqual({
      nodes: ['list limit=1', 'watch', 'stream'],
      pods: ['watch', 'stream'],
    });
    expect(next).toEqual({ nodes: ['list limit=1'], pods: [] });
    read.pods.forEach((pod, i) => {
      expect(pod).toBe(first.pods[i]);
    });
    expect(read).toEqual(await cold.snapshot());
  });

  it('reads into the domain only the objects a streamed list shows changed', async () => {
    // Prepare
    const { server, racing: warm, cold } = await warmed();
    seedCluster(server);
    const first = await warm.snapshot();
    const web1 = server.store.get('pods', 'web-1', 'default');
    if (web1 === undefined) throw new Error('web-1 was not seeded');
    const metadata = { ...(web1.metadata as JsonObject), labels: { tier: 'front' } };
    server.store.update('pods', { ...web1, metadata });
    server.store.create('namespaces', { metadata: { name: 'elsewhere' } });
    // Act
    const read = await warm.snapshot();
    // Assess
    expect(read.pods.map((pod) => pod.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(read.pods[0]).toBe(first.pods[0]);
    expect(read.pods[1]).not.toBe(first.pods[1]);
    expect(read.pods[2]).toBe(first.pods[2]);
    expect(read).toEqual(await cold.snapshot());
  });

  it.each([
    ['410 Gone', 'expired'],
    ['a failed catch-up watch', 'failed'],
  ])('reads the kind whole by a streamed list after %s', async (_, how) => {
    // Prepare
    const { server, warm, cold, advance } = await warmed({ watchCacheSize: 2 });
    seedCluster(server);
    await warm.snapshot();
    changeTheCluster(server);
    if (how === 'expired') {
      advance(120_000);
      for (let i = 4; i < 14; i++) seedPod(server, `web-${i}`, { nodeName: 'n1' });
    } else {
      server.faults.inject({ method: 'GET', path: '/api/v1/pods', status: 500 });
    }
    server.requests.clear();
    // Act
    const read = await warm.snapshot();
    // Assess
    expect(requestsFor(server, 'pods')).toEqual(['watch', 'stream']);
    expect(read).toEqual(await cold.snapshot());
  });

  it('lists again when the cluster revision went back, as after a restore', async () => {
    // Prepare
    const snapshot = new WarmSnapshot();
    const before = await startFakeApiServer({ now: () => NOW });
    for (let i = 0; i < 5; i++) seedPod(before, `old-${i}`);
    await kubernetesClusterFrom(kubeConfigFor(before.url), { warm: snapshot }).snapshot();
    await before.close();
    const { server: restored } = await warmed();
    seedPod(restored, 'new-0');
    const cluster = kubernetesClusterFrom(kubeConfigFor(restored.url), { warm: snapshot });
    // Act
    const read = await cluster.snapshot();
    // Assess
    expect(read.pods.map((pod) => pod.name)).toEqual(['new-0']);
  });
});
