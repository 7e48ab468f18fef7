import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import {
  ConflictError,
  InvalidConfigError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import { type JsonObject, kubeConfigFor } from '../../../simulator/api-server/index.ts';
import { NOW, resourceVersionOf, seedNodeClaim, useFakeCluster } from './support.ts';

const PAGE_SIZE = 2;
const NODE_CLAIMS = '/apis/karpenter.sh/v1/nodeclaims';
const KARPENTER_FINALIZER = 'karpenter.sh/termination';
const FORBIDDEN =
  'nodeclaims.karpenter.sh "default-a" is forbidden: User "nodesmith" cannot delete resource "nodeclaims" in API group "karpenter.sh" at the cluster scope';

function metadataOf(object: JsonObject | undefined): JsonObject | undefined {
  return object?.metadata as JsonObject | undefined;
}

function sent(entries: readonly { method: string; status: number }[]): string[] {
  return entries.map((entry) => `${entry.method} ${entry.status}`);
}

async function rejectionOf(pending: Promise<unknown>): Promise<Error> {
  try {
    await pending;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('Class: KubernetesCluster', () => {
  const fake = useFakeCluster({ pageSize: PAGE_SIZE });

  describe('Method: karpenterNodeClaims', () => {
    it('reads every page and maps each NodeClaim to the domain type, sorted by name', async () => {
      // Prepare
      const { server, cluster } = fake();
      for (const name of ['default-d', 'default-b', 'default-e', 'default-a', 'default-c']) {
        seedNodeClaim(server, name);
      }
      // Act
      const claims = await cluster.karpenterNodeClaims();
      // Assess
      expect(claims.map((claim) => claim.metadata.name)).toEqual([
        'default-a',
        'default-b',
        'default-c',
        'default-d',
        'default-e',
      ]);
      expect(claims[0]).toEqual({
        metadata: {
          name: 'default-a',
          labels: { 'karpenter.sh/nodepool': 'default' },
          creationTimestamp: '2025-06-01T12:00:00Z',
        },
        spec: {
          requirements: [
            { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
            { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] },
          ],
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          expireAfter: '720h',
        },
        status: {
          providerID: 'aws:///us-east-1a/i-default-a',
          nodeName: 'ip-default-a.ec2.internal',
          capacity: { cpu: '2', memory: '8Gi', pods: '29' },
          allocatable: { cpu: '1930m', memory: '7Gi', pods: '29' },
        },
      });
      const queries = server.requests.matching('GET', NODE_CLAIMS).map((r) => r.query);
      expect(queries).toEqual([
        { limit: '2' },
        { limit: '2', continue: expect.any(String) },
        { limit: '2', continue: expect.any(String) },
      ]);
      expect(queries[1]?.continue).not.toBe(queries[2]?.continue);
    });

    it('sorts by name a list the server did not send in name order', async () => {
      // Prepare
      const { server, cluster } = fake();
      const b = seedNodeClaim(server, 'default-b');
      const a = seedNodeClaim(server, 'default-a');
      server.faults.inject({
        method: 'GET',
        path: NODE_CLAIMS,
        status: 200,
        body: { kind: 'NodeClaimList', apiVersion: 'karpenter.sh/v1', metadata: {}, items: [b, a] },
      });
      // Act
      const claims = await cluster.karpenterNodeClaims();
      // Assess
      expect(claims.map((claim) => claim.metadata.name)).toEqual(['default-a', 'default-b']);
    });

    it('keeps the deletionTimestamp of a NodeClaim being deleted', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a', {
        metadata: { deletionTimestamp: '2025-06-01T11:59:00Z', deletionGracePeriodSeconds: 0 },
      });
      // Act
      const [claim] = await cluster.karpenterNodeClaims();
      // Assess
      expect(claim?.metadata.deletionTimestamp).toBe('2025-06-01T11:59:00Z');
    });

    it('rejects with InvalidConfigError naming a NodeClaim it cannot read and the field', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a');
      seedNodeClaim(server, 'default-b', {
        spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' } },
      });
      // Act
      const err = await rejectionOf(cluster.karpenterNodeClaims());
      // Assess
      expect(err).toBeInstanceOf(InvalidConfigError);
      expect(err.message).toMatch(/^reading nodeclaim default-b: spec\.nodeClassRef\.name: /);
    });

    it('rejects with InvalidConfigError naming nodeclaims list and the adoption ClusterRole on a 403', async () => {
      // Prepare
      const { server, cluster } = fake();
      server.faults.inject({ method: 'GET', path: NODE_CLAIMS, status: 403 });
      // Act
      const err = await rejectionOf(cluster.karpenterNodeClaims());
      // Assess
      expect(err).toBeInstanceOf(InvalidConfigError);
      expect(err.message).toMatch(
        /^listing nodeclaims: nodeclaims list is forbidden: check the ClusterRole in deploy\/rbac-adoption\.yaml /,
      );
    });

    it('rejects with ThrottledError on a 429', async () => {
      // Prepare
      const { server, cluster } = fake();
      server.faults.inject({ method: 'GET', path: NODE_CLAIMS, status: 429 });
      // Act
      const err = await rejectionOf(cluster.karpenterNodeClaims());
      // Assess
      expect(err).toBeInstanceOf(ThrottledError);
    });
  });

  describe('Method: releaseKarpenterNodeClaim', () => {
    it('deletes the NodeClaim, then merge-patches away only Karpenter’s finalizer against the version read', async () => {
      // Prepare
      const { server, cluster } = fake();
      const seeded = seedNodeClaim(server, 'default-a', {
        metadata: { finalizers: [KARPENTER_FINALIZER, 'other.io/keep'] },
      });
      // The delete's write, which sets the deletionTimestamp, is the store's next revision.
      const afterDelete = String(Number(resourceVersionOf(seeded)) + 1);
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      const stored = server.store.get('nodeclaims', 'default-a');
      expect(metadataOf(stored)?.finalizers).toEqual(['other.io/keep']);
      expect(metadataOf(stored)?.deletionTimestamp).toBe('2025-06-01T12:00:00Z');
      expect(server.requests.entries.map((r) => `${r.method} ${r.path}`)).toEqual([
        `DELETE ${NODE_CLAIMS}/default-a`,
        `GET ${NODE_CLAIMS}/default-a`,
        `PATCH ${NODE_CLAIMS}/default-a`,
      ]);
      const [patch] = server.requests.matching('PATCH', `${NODE_CLAIMS}/default-a`);
      expect(patch?.contentType).toBe('application/merge-patch+json');
      expect(patch?.body).toEqual({
        metadata: {
          finalizers: ['other.io/keep'],
          resourceVersion: afterDelete,
        },
      });
    });

    it('leaves no NodeClaim behind when Karpenter’s finalizer was its only one', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a');
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      expect(server.store.get('nodeclaims', 'default-a')).toBeUndefined();
      expect(sent(server.requests.entries)).toEqual(['DELETE 200', 'GET 200', 'PATCH 200']);
    });

    it('resolves without a patch when the delete removed the NodeClaim at once', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a', { metadata: { finalizers: [] } });
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      expect(server.store.get('nodeclaims', 'default-a')).toBeUndefined();
      expect(sent(server.requests.entries)).toEqual(['DELETE 200', 'GET 404']);
    });

    it('writes nothing more when Karpenter’s finalizer is already gone', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a', { metadata: { finalizers: ['other.io/keep'] } });
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      expect(metadataOf(server.store.get('nodeclaims', 'default-a'))?.finalizers).toEqual([
        'other.io/keep',
      ]);
      expect(sent(server.requests.entries)).toEqual(['DELETE 200', 'GET 200']);
    });

    it('resolves when the NodeClaim is already gone', async () => {
      // Prepare
      const { server, cluster } = fake();
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      expect(sent(server.requests.entries)).toEqual(['DELETE 404']);
    });

    it('reads again and keeps a finalizer another writer added between its read and its write', async () => {
      // Prepare
      const { server, cluster } = fake();
      const stale = seedNodeClaim(server, 'default-a');
      const current = server.store.get('nodeclaims', 'default-a') as JsonObject;
      server.store.update('nodeclaims', {
        ...current,
        metadata: { ...metadataOf(current), finalizers: [KARPENTER_FINALIZER, 'other.io/keep'] },
      });
      // The first read answers with the NodeClaim as it was before the other writer's change.
      server.faults.inject({
        method: 'GET',
        path: `${NODE_CLAIMS}/default-a`,
        status: 200,
        body: stale,
      });
      // Act
      await cluster.releaseKarpenterNodeClaim('default-a');
      // Assess
      const stored = server.store.get('nodeclaims', 'default-a');
      expect(metadataOf(stored)?.finalizers).toEqual(['other.io/keep']);
      expect(sent(server.requests.entries)).toEqual([
        'DELETE 200',
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
        releaseAttempts: 2,
        now: () => NOW,
      });
      seedNodeClaim(server, 'default-a');
      server.faults.inject({
        method: 'PATCH',
        path: `${NODE_CLAIMS}/default-a`,
        status: 409,
        times: 2,
      });
      // Act
      const err = await rejectionOf(cluster.releaseKarpenterNodeClaim('default-a'));
      // Assess
      expect(err).toBeInstanceOf(ConflictError);
      expect(server.requests.matching('PATCH', `${NODE_CLAIMS}/default-a`)).toHaveLength(2);
      expect(metadataOf(server.store.get('nodeclaims', 'default-a'))?.finalizers).toEqual([
        KARPENTER_FINALIZER,
      ]);
    });

    it('rejects with InvalidConfigError naming nodeclaims delete and the adoption ClusterRole on a 403', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a');
      server.faults.inject({
        method: 'DELETE',
        path: `${NODE_CLAIMS}/default-a`,
        status: 403,
        message: FORBIDDEN,
      });
      // Act
      const err = await rejectionOf(cluster.releaseKarpenterNodeClaim('default-a'));
      // Assess
      expect(err).toBeInstanceOf(InvalidConfigError);
      expect(err.message).toBe(
        `deleting nodeclaim default-a: nodeclaims delete is forbidden: check the ClusterRole in deploy/rbac-adoption.yaml (${FORBIDDEN})`,
      );
      expect(metadataOf(server.store.get('nodeclaims', 'default-a'))?.deletionTimestamp).toBe(
        undefined,
      );
    });

    it('names nodeclaims patch when removing the finalizer is forbidden', async () => {
      // Prepare
      const { server, cluster } = fake();
      seedNodeClaim(server, 'default-a');
      server.faults.inject({ method: 'PATCH', path: `${NODE_CLAIMS}/default-a`, status: 403 });
      // Act
      const err = await rejectionOf(cluster.releaseKarpenterNodeClaim('default-a'));
      // Assess
      expect(err).toBeInstanceOf(InvalidConfigError);
      expect(err.message).toMatch(
        /^patching nodeclaim default-a: nodeclaims patch is forbidden: check the ClusterRole in deploy\/rbac-adoption\.yaml /,
      );
    });
  });
});

describe('Class: KubernetesCluster, on a cluster without Karpenter’s CRDs', () => {
  const fake = useFakeCluster({}, { customResourceDefinitions: false });

  it('lists no NodeClaims when the server answers 404 for the list', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedNodeClaim(server, 'default-a');
    // Act
    const claims = await cluster.karpenterNodeClaims();
    // Assess
    expect(claims).toEqual([]);
    expect(sent(server.requests.entries)).toEqual(['GET 404']);
  });

  it('releases nothing and resolves', async () => {
    // Prepare
    const { server, cluster } = fake();
    // Act
    await cluster.releaseKarpenterNodeClaim('default-a');
    // Assess
    expect(sent(server.requests.entries)).toEqual(['DELETE 404']);
  });
});
