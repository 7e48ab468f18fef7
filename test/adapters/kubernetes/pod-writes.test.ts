import { describe, expect, it } from 'vitest';
import type { FakeApiServer, JsonObject } from '../../../simulator/api-server/index.ts';
import { seedPod, uidOf, useFakeCluster } from './support.ts';

const fake = useFakeCluster();

function seedBudget(server: FakeApiServer, name: string, spec: JsonObject): void {
  server.store.create('poddisruptionbudgets', { metadata: { name, namespace: 'default' }, spec });
}

function deletionOf(server: FakeApiServer, name: string): unknown {
  return (server.store.get('pods', name, 'default')?.metadata as JsonObject | undefined)
    ?.deletionTimestamp;
}

describe('Class: KubernetesCluster', () => {
  describe('Method: evict', () => {
    it('evicts through the Eviction API with the pod uid as a precondition', async () => {
      // Prepare
      const { server, cluster } = fake();
      const pod = seedPod(server, 'web-1', { nodeName: 'n1', labels: { app: 'web' } });
      // Act
      const outcome = await cluster.evict({ namespace: 'default', name: 'web-1', uid: uidOf(pod) });
      // Assess
      expect(outcome).toEqual({ evicted: true });
      // Deleting, with the pod's own 30 s grace period.
      expect(deletionOf(server, 'web-1')).toBe('2025-06-01T12:00:30Z');
      const [request] = server.requests.matching(
        'POST',
        '/api/v1/namespaces/default/pods/web-1/eviction',
      );
      expect(request?.status).toBe(201);
      expect(request?.body).toEqual({
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'web-1', namespace: 'default' },
        deleteOptions: { preconditions: { uid: uidOf(pod) } },
      });
    });

    it('answers a budget with no disruption left as a refusal, not an error', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'web-1', { nodeName: 'n1', labels: { app: 'web' } });
      seedPod(server, 'web-2', { nodeName: 'n1', labels: { app: 'web' } });
      seedBudget(server, 'web', { selector: { matchLabels: { app: 'web' } }, minAvailable: 2 });
      // Act
      const outcome = await cluster.evict({ namespace: 'default', name: 'web-1' });
      // Assess
      expect(outcome).toEqual({
        evicted: false,
        reason: 'DisruptionBudget',
        message: 'The disruption budget web needs 2 healthy pods and has 2 currently',
      });
      expect(deletionOf(server, 'web-1')).toBeUndefined();
      expect(server.requests.entries.map((r) => r.status)).toEqual([429]);
    });

    it('lets one pod go and refuses the next as the budget is spent', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'web-1', { nodeName: 'n1', labels: { app: 'web' } });
      seedPod(server, 'web-2', { nodeName: 'n1', labels: { app: 'web' } });
      seedBudget(server, 'web', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
      // Act
      const first = await cluster.evict({ namespace: 'default', name: 'web-1' });
      const second = await cluster.evict({ namespace: 'default', name: 'web-2' });
      // Assess
      expect([first.evicted, second.evicted]).toEqual([true, false]);
    });

    it('answers a pod guarded by two budgets as a refusal naming the cause', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'web-1', { nodeName: 'n1', labels: { app: 'web', tier: 'front' } });
      seedBudget(server, 'by-app', {
        selector: { matchLabels: { app: 'web' } },
        maxUnavailable: 1,
      });
      seedBudget(server, 'by-tier', {
        selector: { matchLabels: { tier: 'front' } },
        maxUnavailable: 1,
      });
      // Act
      const outcome = await cluster.evict({ namespace: 'default', name: 'web-1' });
      // Assess
      expect(outcome).toMatchObject({ evicted: false, reason: 'MultipleDisruptionBudgets' });
      expect(deletionOf(server, 'web-1')).toBeUndefined();
    });

    it('counts a pod that is gone, or replaced by a namesake, as evicted and leaves the namesake', async () => {
      // Prepare
      const { server, cluster } = fake();
      const replaced = seedPod(server, 'db-0', { nodeName: 'n1' });
      server.store.delete('pods', 'db-0', 'default');
      seedPod(server, 'db-0', { nodeName: 'n2' });
      // Act
      const gone = await cluster.evict({ namespace: 'default', name: 'never-was' });
      const namesake = await cluster.evict({
        namespace: 'default',
        name: 'db-0',
        uid: uidOf(replaced),
      });
      // Assess
      expect([gone, namesake]).toEqual([{ evicted: true }, { evicted: true }]);
      expect(server.requests.entries.map((r) => r.status)).toEqual([404, 409]);
      expect(deletionOf(server, 'db-0')).toBeUndefined();
    });
  });

  describe('Method: deletePod', () => {
    it('deletes with the grace period and uid precondition in the body', async () => {
      // Prepare
      const { server, cluster } = fake();
      const pod = seedPod(server, 'stuck', { nodeName: 'n1' });
      // Act
      await cluster.deletePod({ namespace: 'default', name: 'stuck', uid: uidOf(pod) }, 0);
      // Assess
      expect(server.store.get('pods', 'stuck', 'default')).toBeUndefined();
      const [request] = server.requests.matching('DELETE', '/api/v1/namespaces/default/pods/stuck');
      expect(request?.query).toEqual({});
      expect(request?.body).toEqual({ gracePeriodSeconds: 0, preconditions: { uid: uidOf(pod) } });
    });

    it('leaves the grace period to the pod when none is given', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'web-1', { nodeName: 'n1' });
      // Act
      await cluster.deletePod({ namespace: 'default', name: 'web-1' });
      // Assess
      expect(deletionOf(server, 'web-1')).toBe('2025-06-01T12:00:30Z');
      expect(server.requests.entries[0]?.body).toEqual({});
    });

    it('resolves when the pod, or the pod with that uid, is already gone', async () => {
      // Prepare
      const { server, cluster } = fake();
      const old = seedPod(server, 'db-0', { nodeName: 'n1' });
      server.store.delete('pods', 'db-0', 'default');
      seedPod(server, 'db-0', { nodeName: 'n2' });
      // Act
      await cluster.deletePod({ namespace: 'default', name: 'web-1' }, 0);
      await cluster.deletePod({ namespace: 'default', name: 'db-0', uid: uidOf(old) }, 0);
      // Assess
      expect(server.requests.entries.map((r) => r.status)).toEqual([404, 409]);
      expect(server.store.get('pods', 'db-0', 'default')).toMatchObject({
        metadata: { name: 'db-0' },
        spec: { nodeName: 'n2' },
      });
    });
  });
});
