import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { UNREGISTERED_TAINT } from '../../../functions/domain/lifecycle/node-readiness.ts';
import { DISRUPTED_TAINT } from '../../../functions/domain/taints.ts';
import { TERMINATION_FINALIZER } from '../../../functions/domain/termination/finalizer.ts';
import {
  ConflictError,
  InvalidConfigError,
  NotFoundError,
} from '../../../functions/ports/errors.ts';
import { type JsonObject, kubeConfigFor } from '../../../simulator/api-server/index.ts';
import { NOW, resourceVersionOf, seedNode, useFakeCluster } from './support.ts';

const fake = useFakeCluster();

const GPU = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const };
/** A taint the node lifecycle controller added, with the time it did. */
const UNREACHABLE = {
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  timeAdded: '2025-06-01T11:59:00Z',
};

function storedTaints(node: JsonObject | undefined): unknown {
  return (node?.spec as JsonObject | undefined)?.taints;
}

describe('Class: KubernetesCluster', () => {
  describe('Method: patchNodeMetadata', () => {
    it('merge-patches labels and annotations, removing keys set to null and keeping the rest', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', {
        metadata: { labels: { keep: 'yes', drop: 'me' }, annotations: { note: 'old' } },
      });
      // Act
      const node = await cluster.patchNodeMetadata('n1', {
        labels: { 'karpenter.sh/registered': 'true', drop: null },
        annotations: { note: 'new' },
      });
      // Assess
      expect(node.labels).toEqual({
        'kubernetes.io/hostname': 'n1',
        keep: 'yes',
        'karpenter.sh/registered': 'true',
      });
      expect(node.annotations).toEqual({ note: 'new' });
      const [patch] = server.requests.matching('PATCH', '/api/v1/nodes/n1');
      expect(patch?.contentType).toBe('application/merge-patch+json');
      expect(patch?.body).toEqual({
        metadata: {
          labels: { 'karpenter.sh/registered': 'true', drop: null },
          annotations: { note: 'new' },
        },
      });
    });

    it('rejects with NotFoundError when the node does not exist', async () => {
      // Prepare
      const { cluster } = fake();
      // Act
      const patching = cluster.patchNodeMetadata('gone', { labels: { a: 'b' } });
      // Assess
      await expect(patching).rejects.toThrow(NotFoundError);
      await expect(patching).rejects.toThrow('patching node gone: nodes "gone" not found');
    });
  });

  describe('Method: addTaints', () => {
    it('adds a taint and keeps the others exactly as they were, timeAdded included', async () => {
      // Prepare
      const { server, cluster } = fake();
      const seeded = seedNode(server, 'n1', { spec: { taints: [GPU, UNREACHABLE] } });
      // Act
      const node = await cluster.addTaints('n1', [DISRUPTED_TAINT]);
      // Assess
      expect(node.taints).toEqual([
        GPU,
        { key: UNREACHABLE.key, effect: UNREACHABLE.effect },
        DISRUPTED_TAINT,
      ]);
      expect(storedTaints(server.store.get('nodes', 'n1'))).toEqual([
        GPU,
        { ...UNREACHABLE, timeAdded: '2025-06-01T11:59:00.000Z' },
        { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' },
      ]);
      const [patch] = server.requests.matching('PATCH', '/api/v1/nodes/n1');
      expect(patch?.contentType).toBe('application/merge-patch+json');
      expect(patch?.body).toMatchObject({
        metadata: { resourceVersion: resourceVersionOf(seeded) },
      });
    });

    it('replaces the value of a taint with the same key and effect instead of duplicating it', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { spec: { taints: [GPU] } });
      // Act
      const node = await cluster.addTaints('n1', [{ ...GPU, value: 'inference' }]);
      // Assess
      expect(node.taints).toEqual([{ ...GPU, value: 'inference' }]);
    });

    it('writes nothing when the node already has the taint', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { spec: { taints: [GPU] } });
      // Act
      const node = await cluster.addTaints('n1', [GPU]);
      // Assess
      expect(node.taints).toEqual([GPU]);
      expect(server.requests.entries.map((r) => r.method)).toEqual(['GET']);
    });

    it('reads again and keeps a taint another writer added between its read and its write', async () => {
      // Prepare
      const { server, cluster } = fake();
      const stale = seedNode(server, 'n1', { spec: { taints: [GPU] } });
      const current = server.store.get('nodes', 'n1') as JsonObject;
      server.store.update('nodes', {
        ...current,
        spec: { ...(current.spec as JsonObject), taints: [GPU, UNREACHABLE] },
      });
      // The first read answers with the node as it was before the other writer's change.
      server.faults.inject({ method: 'GET', path: '/api/v1/nodes/n1', status: 200, body: stale });
      // Act
      const node = await cluster.addTaints('n1', [DISRUPTED_TAINT]);
      // Assess
      expect(node.taints.map((taint) => taint.key)).toEqual([
        'dedicated',
        'node.kubernetes.io/unreachable',
        'karpenter.sh/disrupted',
      ]);
      expect(server.requests.entries.map((r) => `${r.method} ${r.status}`)).toEqual([
        'GET 200',
        'PATCH 409',
        'GET 200',
        'PATCH 200',
      ]);
    });

    it('rejects with ConflictError when every try meets a conflict', async () => {
      // Prepare
      const { server } = fake();
      const cluster = kubernetesClusterFrom(kubeConfigFor(server.url), {
        taintAttempts: 2,
        now: () => NOW,
      });
      seedNode(server, 'n1');
      server.faults.inject({ method: 'PATCH', path: '/api/v1/nodes/n1', status: 409, times: 2 });
      // Act
      const adding = cluster.addTaints('n1', [DISRUPTED_TAINT]);
      // Assess
      await expect(adding).rejects.toThrow(ConflictError);
      expect(server.requests.matching('PATCH', '/api/v1/nodes/n1')).toHaveLength(2);
    });
  });

  describe('Method: removeTaints', () => {
    it('removes the taint matched by key and effect and keeps the others', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', {
        spec: { taints: [GPU, { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] },
      });
      // Act
      const node = await cluster.removeTaints('n1', [DISRUPTED_TAINT]);
      // Assess
      expect(node.taints).toEqual([GPU]);
      expect(storedTaints(server.store.get('nodes', 'n1'))).toEqual([GPU]);
    });

    it('writes nothing when the taint is not there', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { spec: { taints: [GPU] } });
      // Act
      const node = await cluster.removeTaints('n1', [DISRUPTED_TAINT]);
      // Assess
      expect(node.taints).toEqual([GPU]);
      expect(server.requests.matching('PATCH', '/api/v1/nodes/n1')).toEqual([]);
    });
  });

  describe('Method: registerNode', () => {
    const registration = {
      labels: { 'karpenter.sh/registered': 'true', team: 'platform' },
      annotations: { 'example.com/owner': 'platform' },
      addTaints: [GPU],
      removeTaints: [UNREGISTERED_TAINT],
      finalizers: [TERMINATION_FINALIZER],
    };

    it('writes labels, annotations, taints and the finalizer in one patch against the version read, and nothing once registered', async () => {
      // Prepare
      const { server, cluster } = fake();
      const seeded = seedNode(server, 'n1', {
        metadata: { finalizers: ['example.com/keep'], annotations: { 'example.com/kept': 'yes' } },
        spec: { taints: [{ ...UNREGISTERED_TAINT }, UNREACHABLE] },
      });
      // Act
      const node = await cluster.registerNode('n1', registration);
      const again = await cluster.registerNode('n1', registration);
      // Assess
      expect(node.finalizers).toEqual(['example.com/keep', TERMINATION_FINALIZER]);
      expect(node.taints).toEqual([{ key: UNREACHABLE.key, effect: UNREACHABLE.effect }, GPU]);
      expect(node.labels).toMatchObject(registration.labels);
      const stored = server.store.get('nodes', 'n1')?.metadata as { annotations?: object };
      expect(stored.annotations).toEqual({
        'example.com/kept': 'yes',
        'example.com/owner': 'platform',
      });
      expect(again).toEqual(node);
      const patches = server.requests.matching('PATCH', '/api/v1/nodes/n1');
      expect(patches.map((p) => p.body)).toEqual([
        {
          metadata: {
            labels: registration.labels,
            annotations: registration.annotations,
            finalizers: ['example.com/keep', TERMINATION_FINALIZER],
            resourceVersion: resourceVersionOf(seeded),
          },
          spec: { taints: [{ ...UNREACHABLE, timeAdded: '2025-06-01T11:59:00.000Z' }, GPU] },
        },
      ]);
    });

    it('rejects a new finalizer on a node being deleted with the server’s 422', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { metadata: { finalizers: ['example.com/keep'] } });
      await cluster.deleteNode('n1');
      // Act
      const registering = cluster.registerNode('n1', registration);
      // Assess
      await expect(registering).rejects.toThrow(InvalidConfigError);
      await expect(registering).rejects.toThrow(
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"nodesmith.io/termination"}',
      );
      expect(server.store.get('nodes', 'n1')?.metadata).toMatchObject({
        finalizers: ['example.com/keep'],
      });
    });
  });

  describe('Method: addFinalizer and removeFinalizer', () => {
    it('adds the finalizer with a strategic merge patch, keeping the node’s others', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { metadata: { finalizers: ['example.com/keep'] } });
      // Act
      const node = await cluster.addFinalizer('n1', TERMINATION_FINALIZER);
      const again = await cluster.addFinalizer('n1', TERMINATION_FINALIZER);
      // Assess
      expect(node.finalizers).toEqual(['example.com/keep', TERMINATION_FINALIZER]);
      expect(again.finalizers).toEqual(node.finalizers);
      const [patch] = server.requests.matching('PATCH', '/api/v1/nodes/n1');
      expect(patch?.contentType).toBe('application/strategic-merge-patch+json');
    });

    it('holds a deleted node until the finalizer is removed, then it is gone; removing again resolves', async () => {
      // Prepare: `kubectl delete node` on a node Nodesmith registered
      const { server, cluster } = fake();
      seedNode(server, 'n1');
      await cluster.addFinalizer('n1', TERMINATION_FINALIZER);
      await cluster.deleteNode('n1');
      const [held] = await cluster.nodes();
      // Act
      await cluster.removeFinalizer('n1', TERMINATION_FINALIZER);
      await cluster.removeFinalizer('n1', TERMINATION_FINALIZER);
      // Assess
      expect(held).toMatchObject({
        name: 'n1',
        deleting: true,
        finalizers: [TERMINATION_FINALIZER],
      });
      expect(server.store.get('nodes', 'n1')).toBeUndefined();
      expect(server.requests.entries.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'PATCH /api/v1/nodes/n1 200',
        'DELETE /api/v1/nodes/n1 200',
        'GET /api/v1/nodes 200',
        'PATCH /api/v1/nodes/n1 200',
        'PATCH /api/v1/nodes/n1 404',
      ]);
    });

    it('removes only its own finalizer: a deleted node another one holds stays', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { metadata: { finalizers: ['example.com/keep'] } });
      await cluster.addFinalizer('n1', TERMINATION_FINALIZER);
      await cluster.deleteNode('n1');
      // Act
      await cluster.removeFinalizer('n1', TERMINATION_FINALIZER);
      // Assess
      expect(server.store.get('nodes', 'n1')?.metadata).toMatchObject({
        finalizers: ['example.com/keep'],
        deletionTimestamp: '2025-06-01T12:00:00Z',
        deletionGracePeriodSeconds: 0,
      });
    });

    it('cannot put the finalizer back on a node being deleted', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1', { metadata: { finalizers: ['example.com/keep'] } });
      await cluster.deleteNode('n1');
      // Act
      const adding = cluster.addFinalizer('n1', TERMINATION_FINALIZER);
      // Assess
      await expect(adding).rejects.toThrow(InvalidConfigError);
      expect(server.store.get('nodes', 'n1')?.metadata).toMatchObject({
        finalizers: ['example.com/keep'],
      });
    });
  });

  describe('Method: cordon and uncordon', () => {
    it('sets and clears spec.unschedulable with merge patches', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1');
      // Act
      const cordoned = await cluster.cordon('n1');
      const again = await cluster.cordon('n1');
      const uncordoned = await cluster.uncordon('n1');
      // Assess
      expect([cordoned.unschedulable, again.unschedulable, uncordoned.unschedulable]).toEqual([
        true,
        true,
        false,
      ]);
      expect(server.requests.matching('PATCH', '/api/v1/nodes/n1').map((r) => r.body)).toEqual([
        { spec: { unschedulable: true } },
        { spec: { unschedulable: true } },
        { spec: { unschedulable: null } },
      ]);
    });
  });

  describe('Method: deleteNode', () => {
    it('deletes the node, and resolves when it is already gone', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNode(server, 'n1');
      // Act
      await cluster.deleteNode('n1');
      await cluster.deleteNode('n1');
      // Assess
      expect(server.store.get('nodes', 'n1')).toBeUndefined();
      expect(server.requests.entries.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'DELETE /api/v1/nodes/n1 200',
        'DELETE /api/v1/nodes/n1 404',
      ]);
    });
  });
});
