import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../functions/ports/errors.ts';
import { seedNode, seedPod, uidOf, useFakeCluster } from './support.ts';

const fake = useFakeCluster();

describe('Class: KubernetesCluster', () => {
  describe('Method: createEvent', () => {
    it('records an event about a node in the default namespace, reported by nodesmith', async () => {
      // Prepare
      const { server, cluster } = fake();
      const node = seedNode(server, 'n1');
      // Act
      await cluster.createEvent({
        involvedObject: { kind: 'Node', name: 'n1', uid: uidOf(node) },
        type: 'Normal',
        reason: 'DisruptionTerminating',
        message: 'Disrupting Node: Empty',
      });
      // Assess
      const [event, ...others] = server.store.list('events', 'default');
      expect(others).toEqual([]);
      expect(event).toMatchObject({
        metadata: { namespace: 'default', name: expect.stringMatching(/^n1\.[a-z0-9]+$/) },
        involvedObject: { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: uidOf(node) },
        type: 'Normal',
        reason: 'DisruptionTerminating',
        message: 'Disrupting Node: Empty',
        source: { component: 'nodesmith' },
        reportingComponent: 'nodesmith',
        firstTimestamp: '2025-06-01T12:00:00.000Z',
        lastTimestamp: '2025-06-01T12:00:00.000Z',
        count: 1,
      });
      expect(server.requests.entries.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'POST /api/v1/namespaces/default/events 201',
      ]);
    });

    it("records an event about a pod in the pod's namespace", async () => {
      // Prepare
      const { server, cluster } = fake();
      seedPod(server, 'api-0', { namespace: 'kube-system' });
      // Act
      await cluster.createEvent({
        involvedObject: { kind: 'Pod', name: 'api-0', namespace: 'kube-system' },
        type: 'Warning',
        reason: 'FailedDraining',
        message: 'evicting pod kube-system/api-0 violates a PDB',
      });
      // Assess
      expect(server.store.list('events', 'kube-system')).toEqual([
        expect.objectContaining({
          involvedObject: {
            apiVersion: 'v1',
            kind: 'Pod',
            name: 'api-0',
            namespace: 'kube-system',
          },
          type: 'Warning',
        }),
      ]);
    });

    it('rejects with NotFoundError when the namespace does not exist', async () => {
      // Prepare
      const { cluster } = fake();
      // Act
      const recording = cluster.createEvent({
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'missing' },
        type: 'Normal',
        reason: 'Nominated',
        message: 'Pod should schedule on: nodeclaim/default-0',
      });
      // Assess
      await expect(recording).rejects.toThrow(NotFoundError);
      await expect(recording).rejects.toThrow(
        'recording event Nominated for pod p: namespaces "missing" not found',
      );
    });
  });
});

describe('Class: KubernetesCluster, deduplicating events', () => {
  let now = new Date('2025-06-01T12:00:00.000Z');
  const deduping = useFakeCluster({ now: () => now });
  const nominated = (uid: string) => ({
    involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', uid },
    type: 'Normal' as const,
    reason: 'Nominated',
    message: 'Pod should schedule on: nodeclaim/default-x7k2p',
    dedupeSeconds: 120,
  });

  it('records an event once within its dedupe window, again after it, and other reasons apart', async () => {
    const { server, cluster } = deduping();
    seedPod(server, 'web-1');
    await cluster.createEvent(nominated('u-1'));
    await cluster.createEvent(nominated('u-1'));
    await cluster.createEvent({ ...nominated('u-1'), reason: 'FailedScheduling' });
    await cluster.createEvent(nominated('u-2'));
    expect(server.store.list('events', 'default')).toHaveLength(3);
    now = new Date(now.getTime() + 121_000);
    await cluster.createEvent(nominated('u-1'));
    expect(server.store.list('events', 'default')).toHaveLength(4);
  });

  it('records every event that asks for no deduplication', async () => {
    const { server, cluster } = deduping();
    seedPod(server, 'web-1');
    const { dedupeSeconds: _, ...plain } = nominated('u-1');
    await cluster.createEvent(plain);
    await cluster.createEvent(plain);
    expect(server.store.list('events', 'default')).toHaveLength(2);
  });
});
