import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import {
  ConflictError,
  InvalidConfigError,
  isPortError,
  NotFoundError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import { kubeConfigFor } from '../../../simulator/api-server/index.ts';
import { seedNode, seedPod, useFakeCluster } from './support.ts';

const fake = useFakeCluster();

/** What the promise rejected with; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

const FORBIDDEN =
  'nodes "n1" is forbidden: User "arn:aws:sts::111122223333:assumed-role/nodesmith/controller" cannot patch resource "nodes" in API group "" at the cluster scope';

describe('Function: toPortError (through KubernetesCluster)', () => {
  it('turns a 404 into NotFoundError with the server message', async () => {
    // Prepare
    const { server, cluster } = fake();
    server.faults.inject({ method: 'GET', path: '/api/v1/nodes', status: 404 });
    // Act
    const err = await rejectionOf(cluster.nodes());
    // Assess
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('listing nodes: the server could not find the requested resource');
    expect(err.cause).toBeInstanceOf(ApiException);
  });

  it('turns a 409 into ConflictError', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedNode(server, 'n1');
    server.faults.inject({ method: 'PATCH', path: '/api/v1/nodes/n1', status: 409 });
    // Act
    const err = await rejectionOf(cluster.cordon('n1'));
    // Assess
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe('patching node n1: the server reported a conflict');
  });

  it('turns a 429 into ThrottledError', async () => {
    // Prepare
    const { server, cluster } = fake();
    server.faults.inject({
      method: 'GET',
      path: '/api/v1/pods',
      status: 429,
      retryAfterSeconds: 2,
    });
    // Act
    const err = await rejectionOf(cluster.pendingPods());
    // Assess
    expect(err).toBeInstanceOf(ThrottledError);
    expect(err.message).toMatch(/^listing pods: the server has received too many requests/);
  });

  it('turns a 429 on an eviction that no budget caused into ThrottledError', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedPod(server, 'web-1', { nodeName: 'n1' });
    server.faults.inject({
      method: 'POST',
      path: '/api/v1/namespaces/default/pods/web-1/eviction',
      status: 429,
    });
    // Act
    const err = await rejectionOf(cluster.evict({ namespace: 'default', name: 'web-1' }));
    // Assess
    expect(err).toBeInstanceOf(ThrottledError);
    expect(err.message).toMatch(/^evicting pod default\/web-1: /);
  });

  it('turns a 403 into InvalidConfigError naming the resource and verb the ClusterRole lacks', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedNode(server, 'n1');
    server.faults.inject({
      method: 'PATCH',
      path: '/api/v1/nodes/n1',
      status: 403,
      message: FORBIDDEN,
    });
    // Act
    const err = await rejectionOf(cluster.addTaints('n1', [{ key: 'k', effect: 'NoSchedule' }]));
    // Assess
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err.message).toBe(
      `patching node n1: nodes patch is forbidden: check the ClusterRole in deploy/rbac.yaml (${FORBIDDEN})`,
    );
  });

  it('names the subresource when an eviction is forbidden', async () => {
    // Prepare
    const { server, cluster } = fake();
    server.faults.inject({ path: /\/eviction$/, status: 403 });
    // Act
    const err = await rejectionOf(cluster.evict({ namespace: 'default', name: 'p' }));
    // Assess
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err.message).toMatch(/^evicting pod default\/p: pods\/eviction create is forbidden: /);
  });

  it('turns a 401 into InvalidConfigError pointing at the access entry and token', async () => {
    // Prepare
    const { server, cluster } = fake();
    server.faults.inject({ method: 'GET', path: '/api/v1/nodes', status: 401 });
    // Act
    const err = await rejectionOf(cluster.snapshot());
    // Assess
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err.message).toBe(
      'listing nodes: the API server did not accept the credentials (401 Unauthorized): check the EKS access entry and token (docs/cluster-access.md)',
    );
    expect(server.requests.matching('GET', '/api/v1/pods')).toEqual([]);
  });

  it("turns a 422 into InvalidConfigError carrying the server's validation message", async () => {
    // Prepare
    const { server, cluster } = fake();
    seedNode(server, 'n1');
    // Act
    const err = await rejectionOf(cluster.patchNodeMetadata('n1', { labels: { 'bad key!': 'x' } }));
    // Assess
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err.message).toMatch(
      /^patching node n1: Node "n1" is invalid: metadata\.labels: Invalid value: "bad key!"/,
    );
    expect(server.requests.entries.map((r) => r.status)).toEqual([422]);
  });

  it('keeps a 500 as the client error it is', async () => {
    // Prepare
    const { server, cluster } = fake();
    server.faults.inject({
      method: 'GET',
      path: '/api/v1/nodes',
      status: 500,
      message: 'etcd timeout',
    });
    // Act
    const err = await rejectionOf(cluster.nodes());
    // Assess
    expect(isPortError(err)).toBe(false);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(500);
  });

  it('keeps a failure to connect as it is', async () => {
    // Prepare
    const { server } = fake();
    const cluster = kubernetesClusterFrom(kubeConfigFor('http://127.0.0.1:9'));
    // Act
    const err = await rejectionOf(cluster.nodes());
    // Assess
    expect(isPortError(err)).toBe(false);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(server.requests.entries).toEqual([]);
  });

  it('turns an object the domain cannot read into InvalidConfigError naming the object and field', async () => {
    // Prepare
    const { server, cluster } = fake();
    seedPod(server, 'odd', { nodeName: 'n1', cpu: 'lots' });
    // Act
    const err = await rejectionOf(cluster.pods());
    // Assess
    expect(err).toBeInstanceOf(InvalidConfigError);
    expect(err.message).toMatch(
      /^reading pod default\/odd: spec\.containers\[0\]\.resources\.requests\.cpu: /,
    );
  });
});
