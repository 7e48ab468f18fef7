/**
 * `nodesmith plan --kubeconfig`: a what-if plan for the pending pods of a live cluster, read
 * through the Kubernetes adapter over HTTP (here the fake API server), never writing to it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeApiServer, startFakeApiServer } from '../../simulator/api-server/index.ts';
import { runCli, writeKubeconfig } from '../support/cli.ts';
import { aNodePoolDocument, yamlOf } from '../support/karpenter-documents.ts';

const NODE_POOL = yamlOf(
  aNodePoolDocument({
    requirements: {
      'node.kubernetes.io/instance-type': ['m5.large'],
      'karpenter.sh/capacity-type': ['on-demand'],
    },
  }),
);

function pendingPod(name: string, cpu: string) {
  return {
    metadata: { name, namespace: 'shop', labels: { app: 'web' } },
    spec: {
      containers: [
        { name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '512Mi' } } },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

/** `nodesmith plan -f <the NodePool> --kubeconfig <server> <extra>`, through the built binary. */
function planLive(server: FakeApiServer, ...extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-kubeconfig-'));
  const pools = join(dir, 'pools.yaml');
  writeFileSync(pools, NODE_POOL);
  return runCli(['plan', '-f', pools, '--kubeconfig', writeKubeconfig(server.url, dir), ...extra]);
}

describe('plan --kubeconfig', () => {
  let server: FakeApiServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('plans the pending pods of a live cluster with NodePools from a file, and only reads', async () => {
    // Prepare: a cluster with a namespace and two pending pods, a NodePool in a file
    server = await startFakeApiServer();
    server.store.create('namespaces', { metadata: { name: 'shop' } });
    server.store.create('pods', pendingPod('web-1', '500m'));
    server.store.create('pods', pendingPod('web-2', '500m'));

    // Act
    const result = await planLive(server, '-o', 'json');

    // Assess
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const plan = JSON.parse(result.stdout) as {
      nodeClaims: { instanceType: string; pods: string[] }[];
    };
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.instanceType).toBe('m5.large');
    expect([...(plan.nodeClaims[0]?.pods ?? [])].sort()).toEqual(['shop/web-1', 'shop/web-2']);
    expect(server.requests.entries.map((r) => r.method).filter((m) => m !== 'GET')).toEqual([]);
    // Nodes before pods, so that a pod binding in between is counted on its node.
    const reads = server.requests.entries
      .map((r) => r.path)
      .filter((path) => path === '/api/v1/nodes' || path === '/api/v1/pods');
    expect(reads).toEqual(['/api/v1/nodes', '/api/v1/pods']);
  });

  it('names the missing context and exits 2', async () => {
    // Prepare
    server = await startFakeApiServer();

    // Act
    const result = await planLive(server, '--context', 'prod');

    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('prod');
    expect(result.stderr).toContain('fake');
  });
});
