/**
 * The server with access control on, as kube-apiserver answers through its authentication and
 * authorization filters: 401 for credentials that do not hold, 403 with the Status and wording of
 * responsewriters.Forbidden for a request RBAC does not allow, the request served otherwise —
 * and, without credentials the authenticator checks, served unchecked as before.
 */
import { readFileSync } from 'node:fs';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessControl, AccessRefusal } from '../../../simulator/api-server/access-control.ts';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/server.ts';
import { RbacAuthorizer } from '../../../simulator/kubernetes-rbac/rbac-authorizer.ts';
import { parseRbacObjects } from '../../../simulator/kubernetes-rbac/rbac-objects.ts';
import { expectFailure, failureOf, failureStatus, podManifest } from './harness.ts';

const RBAC = parseRbacObjects(
  readFileSync(new URL('../../../deploy/rbac.yaml', import.meta.url), 'utf8'),
);

/** Tokens the test's authenticator knows: each a user of one of deploy/rbac.yaml's groups. */
const USERS: Readonly<Record<string, { name: string; groups: string[] }>> = {
  interruption: {
    name: 'interruption-role',
    groups: ['nodesmith:interruption', 'system:authenticated'],
  },
  controller: { name: 'controller-role', groups: ['nodesmith:controller', 'system:authenticated'] },
};

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serverWithRbac() {
  const refusals: AccessRefusal[] = [];
  const rbac = new RbacAuthorizer(RBAC);
  const access: AccessControl = {
    authenticate: async (authorization) => {
      if (authorization === undefined || !authorization.startsWith('Bearer eks-')) return undefined;
      return USERS[authorization.slice('Bearer eks-'.length)] ?? 'unauthorized';
    },
    authorize: (attributes) => rbac.authorize(attributes),
    refused: (refusal) => refusals.push(refusal),
  };
  server = await startFakeApiServer({ access });
  server.store.create('nodes', { metadata: { name: 'n1' } });
  server.store.create('pods', {
    ...podManifest('web-1'),
    metadata: { name: 'web-1', namespace: 'default' },
  });
  return { server, refusals, as: (token: string) => kubeConfigFor(server?.url ?? '', token) };
}

describe('the API server with access control', () => {
  it("refuses a request the user's groups are not allowed, as kube-apiserver words it", async () => {
    // Prepare
    const { server, refusals, as } = await serverWithRbac();
    const core = as('eks-interruption').makeApiClient(CoreV1Api);
    // Act
    const failure = await failureOf(core.deleteNode({ name: 'n1' }));
    // Assess
    const message =
      'nodes "n1" is forbidden: User "interruption-role" cannot delete resource "nodes" in API group "" at the cluster scope';
    expectFailure(failure, 403, {
      message,
      reason: 'Forbidden',
      details: { name: 'n1', kind: 'nodes' },
    });
    expect(server.store.get('nodes', 'n1')).toBeDefined();
    expect(server.requests.matching('DELETE', '/api/v1/nodes/n1').map((r) => r.status)).toEqual([
      403,
    ]);
    expect(refusals).toMatchObject([
      { code: 403, message, attributes: { verb: 'delete', resource: 'nodes', name: 'n1' } },
    ]);
  });

  it('names the subresource and the namespace of a namespaced request', async () => {
    // Prepare
    const { as } = await serverWithRbac();
    const core = as('eks-interruption').makeApiClient(CoreV1Api);
    // Act
    const failure = await failureOf(
      core.createNamespacedPodEviction({
        name: 'web-1',
        namespace: 'default',
        body: { metadata: { name: 'web-1', namespace: 'default' } },
      }),
    );
    // Assess
    expectFailure(failure, 403, {
      message:
        'pods "web-1" is forbidden: User "interruption-role" cannot create resource "pods/eviction" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { name: 'web-1', kind: 'pods' },
    });
  });

  it('names the API group, and no name on a list', async () => {
    // Prepare
    const { as } = await serverWithRbac();
    const custom = as('eks-controller').makeApiClient(CustomObjectsApi);
    // Act
    const failure = await failureOf(
      custom.listClusterCustomObject({
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodeclaims',
      }),
    );
    // Assess
    expectFailure(failure, 403, {
      message:
        'nodeclaims.karpenter.sh is forbidden: User "controller-role" cannot list resource "nodeclaims" in API group "karpenter.sh" at the cluster scope',
      reason: 'Forbidden',
      details: { group: 'karpenter.sh', kind: 'nodeclaims' },
    });
  });

  it('serves what the groups are allowed', async () => {
    // Prepare
    const { as, refusals } = await serverWithRbac();
    const core = as('eks-controller').makeApiClient(CoreV1Api);
    // Act
    const nodes = await core.listNode();
    await core.deleteNode({ name: 'n1' });
    // Assess
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['n1']);
    expect(refusals).toEqual([]);
  });

  it('answers 401 to credentials that do not authenticate', async () => {
    // Prepare
    const { server, refusals } = await serverWithRbac();
    // Act
    const response = await fetch(`${server.url}/api/v1/nodes`, {
      headers: { authorization: 'Bearer eks-stranger' },
    });
    // Assess
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(
      failureStatus(401, { message: 'Unauthorized', reason: 'Unauthorized' }),
    );
    expect(refusals).toEqual([{ code: 401, attributes: undefined, message: 'Unauthorized' }]);
  });

  it("lets in unchecked the requests the authenticator leaves alone: the simulation's own", async () => {
    // Prepare
    const { server, as, refusals } = await serverWithRbac();
    const core = as('test-token').makeApiClient(CoreV1Api);
    // Act
    await core.deleteNode({ name: 'n1' });
    // Assess
    expect(server.store.get('nodes', 'n1')).toBeUndefined();
    expect(refusals).toEqual([]);
  });

  it('stops checking when access control is turned off', async () => {
    // Prepare
    const { server, as } = await serverWithRbac();
    server.controlAccess(undefined);
    const core = as('eks-interruption').makeApiClient(CoreV1Api);
    // Act
    await core.deleteNode({ name: 'n1' });
    // Assess
    expect(server.store.get('nodes', 'n1')).toBeUndefined();
  });
});
