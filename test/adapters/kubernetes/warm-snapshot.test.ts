import { afterEach, describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { WarmSnapshot } from '../../../functions/adapters/kubernetes/warm-snapshot.ts';
import type { Cluster } from '../../../functions/ports/cluster.ts';
import {
  type FakeApiServer,
  type FakeApiServerOptions,
  kubeConfigFor,
  startFakeApiServer,
} from '../../../simulator/api-server/index.ts';
import { closeAllowed, NOW, seedNode, seedPod, UNSCHEDULABLE } from './support.ts';

interface Warmed {
  readonly server: FakeApiServer;
  /** Keeps nodes and pods between snapshots. */
  readonly warm: Cluster;
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
    warm: new WarmSnapshot({ raceListAfterMs: 60_000 }),
  });
  const cold = kubernetesClusterFrom(kubeConfig, { now: () => NOW, pageSize: 2 });
  return { server, warm, cold, advance: (ms) => (nowMs += ms) };
}

afterEach(async () => {
  const server = current;
  current = undefined;
  if (server !== undefined) await closeAllowed(server);
});

function requestsFor(server: FakeApiServer, resource: 'nodes' | 'pods'): string[] {
  return server.requests.entries
    .filter((entry) => entry.path === `/api/v1/${resource}`)
    .map((entry) => (entry.query.watch === 'true' ? 'watch' : `list limit=${entry.query.limit}`));
}

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
    const { server, cold } = await warmed();
    const warm = kubernetesClusterFrom(kubeConfigFor(server.url), {
      pageSize: 2,
      warm: new WarmSnapshot(),
    });
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
    const { server, warm, cold } = await warmed();
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
    const { server, warm, cold, advance } = await warmed({ watchCacheSize: 2 });
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
    const { server, warm, cold } = await warmed();
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
