import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectFailure,
  failureOf,
  failureStatus,
  type Harness,
  podManifest,
  startHarness,
} from './harness.ts';

const NOW = new Date('2025-03-04T05:06:07.890Z');
let h: Harness;

beforeEach(async () => {
  h = await startHarness({ now: () => NOW });
});

afterEach(async () => {
  await h.server.close();
});

async function raw(method: string, path: string, body?: string, contentType = 'application/json') {
  const response = await fetch(`${h.server.url}${path}`, {
    method,
    headers: { 'content-type': contentType },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('creating and reading objects', () => {
  it('creates a pod with server-owned metadata, the v1 defaults and a Pending status', async () => {
    // Act
    const created = await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('web-1'),
    });
    // Assess
    const stored = h.server.store.get('pods', 'web-1', 'default');
    expect(stored?.metadata).toMatchObject({
      name: 'web-1',
      namespace: 'default',
      uid: created.metadata?.uid,
      creationTimestamp: '2025-03-04T05:06:07Z',
      generation: 1,
      resourceVersion: h.server.store.resourceVersion,
    });
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(created.spec).toMatchObject({
      schedulerName: 'default-scheduler',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      priority: 0,
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    });
  });

  it('defaults requests from limits and classes the pod Guaranteed', async () => {
    // Prepare
    const body = podManifest('web-1');
    body.spec.containers = [
      { name: 'app', image: 'app', resources: { limits: { cpu: '1', memory: '1Gi' } } } as never,
    ];
    // Act
    const created = await h.core.createNamespacedPod({ namespace: 'default', body });
    // Assess
    expect(created.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(created.spec?.containers[0]?.imagePullPolicy).toBe('Always');
    expect(created.status?.qosClass).toBe('Guaranteed');
  });

  it('stamps every write with the next value of one cluster-wide resourceVersion', async () => {
    // Act
    const node = await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    const pod = await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    const patched = await h.core.patchNode({
      name: 'n1',
      body: [{ op: 'add', path: '/metadata/labels', value: { zone: 'a' } }],
    });
    const list = await h.core.listNode();
    // Assess
    const versions = [node, pod, patched].map((o) => Number(o.metadata?.resourceVersion));
    expect(versions).toEqual([versions[0], (versions[0] ?? 0) + 1, (versions[0] ?? 0) + 2]);
    expect(list.metadata?.resourceVersion).toBe(patched.metadata?.resourceVersion);
  });

  it('lists pods of one namespace or of all, in namespace then name order', async () => {
    // Prepare
    await h.core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    for (const [namespace, name] of [
      ['team-a', 'b'],
      ['default', 'z'],
      ['team-a', 'a'],
    ] as const) {
      await h.core.createNamespacedPod({ namespace, body: podManifest(name) });
    }
    // Act
    const all = await h.core.listPodForAllNamespaces();
    const teamA = await h.core.listNamespacedPod({ namespace: 'team-a' });
    // Assess
    expect(all.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual([
      'default/z',
      'team-a/a',
      'team-a/b',
    ]);
    expect(teamA.items.map((p) => p.metadata?.name)).toEqual(['a', 'b']);
  });

  it('sends lists as kind PodList with the list resourceVersion and items without type fields', async () => {
    // Prepare
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    // Act
    const list = await raw('GET', '/api/v1/namespaces/default/pods');
    // Assess
    expect(list.body).toMatchObject({
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: h.server.store.resourceVersion },
    });
    const [item] = list.body.items as Record<string, unknown>[];
    expect(item).not.toHaveProperty('kind');
    expect(item).toHaveProperty('metadata.name', 'p1');
  });

  it('pages a list with limit and continue', async () => {
    // Prepare
    for (const name of ['n1', 'n2', 'n3', 'n4', 'n5'])
      h.server.store.create('nodes', { metadata: { name } });
    // Act
    const first = await h.core.listNode({ limit: 2 });
    const second = await h.core.listNode({ limit: 2, _continue: first.metadata?._continue });
    const third = await h.core.listNode({ limit: 2, _continue: second.metadata?._continue });
    // Assess
    expect(first.items.map((n) => n.metadata?.name)).toEqual(['n1', 'n2']);
    expect(first.metadata?.remainingItemCount).toBe(3);
    expect(second.items.map((n) => n.metadata?.name)).toEqual(['n3', 'n4']);
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    expect(third.items.map((n) => n.metadata?.name)).toEqual(['n5']);
    expect(third.metadata?._continue).toBeUndefined();
    const token = JSON.parse(Buffer.from(first.metadata?._continue ?? '', 'base64url').toString());
    expect(token).toEqual({
      v: 'meta.k8s.io/v1',
      rv: Number(first.metadata?.resourceVersion),
      start: 'n2\u0000',
    });
  });

  it('leaves out remainingItemCount when a selector narrowed the list', async () => {
    // Prepare
    for (const name of ['n1', 'n2', 'n3'])
      h.server.store.create('nodes', { metadata: { name, labels: { a: 'b' } } });
    // Act
    const page = await h.core.listNode({ limit: 1, labelSelector: 'a=b' });
    // Assess
    expect(page.metadata?._continue).toMatch(/.+/);
    expect(page.metadata?.remainingItemCount).toBeUndefined();
  });

  it('rejects a continue token it cannot read with a 400', async () => {
    // Act
    const failure = await failureOf(h.core.listNode({ limit: 1, _continue: 'not base64!' }));
    // Assess
    expect(failure.code).toBe(400);
    expect(failure.body).toMatchObject({ reason: 'BadRequest' });
    expect(String(failure.body.message)).toMatch(
      /^invalid continue token: continue key is not valid/,
    );
  });

  it('names a generated pod from its generateName', async () => {
    // Act
    const created = await h.core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { generateName: 'web-' }, spec: podManifest('').spec },
    });
    // Assess
    expect(created.metadata?.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});

describe('failures worded as the real server words them', () => {
  it('answers a missing pod with 404 NotFound', async () => {
    // Act
    const failure = await failureOf(
      h.core.readNamespacedPod({ namespace: 'default', name: 'web-1' }),
    );
    // Assess
    expectFailure(failure, 404, {
      message: 'pods "web-1" not found',
      reason: 'NotFound',
      details: { name: 'web-1', kind: 'pods' },
    });
  });

  it('names the group in a NotFound for a grouped resource', async () => {
    // Act
    const failure = await failureOf(
      h.apps.readNamespacedDaemonSet({ namespace: 'default', name: 'ds' }),
    );
    // Assess
    expect(failure.body).toMatchObject({
      message: 'daemonsets.apps "ds" not found',
      details: { name: 'ds', group: 'apps', kind: 'daemonsets' },
    });
  });

  it('answers a taken name with 409 AlreadyExists', async () => {
    // Prepare
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('web-1') });
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPod({ namespace: 'default', body: podManifest('web-1') }),
    );
    // Assess
    expectFailure(failure, 409, {
      message: 'pods "web-1" already exists',
      reason: 'AlreadyExists',
      details: { name: 'web-1', kind: 'pods' },
    });
  });

  it('refuses to create in a namespace that does not exist', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPod({ namespace: 'nowhere', body: podManifest('p') }),
    );
    // Assess
    expect(failure.code).toBe(404);
    expect(failure.body).toMatchObject({
      message: 'namespaces "nowhere" not found',
      details: { name: 'nowhere', kind: 'namespaces' },
    });
  });

  it('answers an invalid pod with 422 Invalid and one cause per field error', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPod({
        namespace: 'default',
        body: { metadata: { name: 'Web_1' }, spec: { containers: [] } },
      }),
    );
    // Assess
    const nameRule =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    expectFailure(failure, 422, {
      message: `Pod "Web_1" is invalid: [metadata.name: Invalid value: "Web_1": ${nameRule}, spec.containers: Required value]`,
      reason: 'Invalid',
      details: {
        name: 'Web_1',
        kind: 'Pod',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: "Web_1": ${nameRule}`,
            field: 'metadata.name',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' },
        ],
      },
    });
  });

  it('answers unparseable JSON with 400 BadRequest', async () => {
    // Act
    const response = await raw('POST', '/api/v1/namespaces/default/pods', '{bad');
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(String(response.body.message)).toMatch(
      /^the object provided is unrecognized \(must be of type Pod\): couldn't get version\/kind; json parse error: .* \(\{bad\)$/,
    );
  });

  it('answers a body of another kind with 400 BadRequest', async () => {
    // Act
    const response = await raw(
      'POST',
      '/api/v1/nodes',
      JSON.stringify({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'x' } }),
    );
    // Assess
    expect(response.status).toBe(400);
    expect(String(response.body.message)).toMatch(
      /^Pod in version "v1" cannot be handled as a Node/,
    );
  });

  it('refuses a create that carries a resourceVersion, as storage does', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNode({ body: { metadata: { name: 'n1', resourceVersion: '7' } } }),
    );
    // Assess
    expectFailure(failure, 500, {
      message: 'resourceVersion should not be set on objects to be created',
    });
  });

  it('answers an unknown path with the generic 404', async () => {
    // Act
    const response = await raw('GET', '/apis/example.com/v1/widgets');
    // Assess
    expect(response).toEqual({
      status: 404,
      body: failureStatus(404, {
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
      }),
    });
  });
});

describe('updates', () => {
  it('answers a PUT with a stale resourceVersion with 409 Conflict', async () => {
    // Prepare
    const original = await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    await h.core.replaceNode({
      name: 'n1',
      body: { ...original, metadata: { ...original.metadata, labels: { a: '1' } } },
    });
    // Act
    const failure = await failureOf(
      h.core.replaceNode({
        name: 'n1',
        body: { ...original, metadata: { ...original.metadata, labels: { b: '2' } } },
      }),
    );
    // Assess
    expectFailure(failure, 409, {
      message:
        'Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'n1', kind: 'nodes' },
    });
  });

  it('applies a PUT without a resourceVersion unconditionally', async () => {
    // Prepare
    await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    // Act
    const updated = await h.core.replaceNode({
      name: 'n1',
      body: { metadata: { name: 'n1', labels: { a: '1' } } },
    });
    // Assess
    expect(updated.metadata?.labels).toEqual({ a: '1' });
  });

  it('keeps the resourceVersion when an update changes nothing', async () => {
    // Prepare
    const node = await h.core.createNode({
      body: { metadata: { name: 'n1', labels: { a: '1' } } },
    });
    // Act
    const again = await h.core.replaceNode({ name: 'n1', body: node });
    // Assess
    expect(again.metadata?.resourceVersion).toBe(node.metadata?.resourceVersion);
  });

  it('ignores status written to the main resource and spec written to /status', async () => {
    // Prepare
    const node = await h.core.createNode({
      body: { metadata: { name: 'n1' }, status: { phase: 'Running' } },
    });
    // Act
    const main = await h.core.replaceNode({
      name: 'n1',
      body: { ...node, spec: { unschedulable: true }, status: { phase: 'Terminated' } },
    });
    const status = await h.core.replaceNodeStatus({
      name: 'n1',
      body: { ...main, spec: { unschedulable: false }, status: { phase: 'Pending' } },
    });
    // Assess
    expect(main.spec?.unschedulable).toBe(true);
    expect(main.status?.phase).toBe('Running');
    expect(status.spec?.unschedulable).toBe(true);
    expect(status.status?.phase).toBe('Pending');
  });

  it('bumps generation on spec changes only', async () => {
    // Prepare
    const pod = await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    // Act
    const relabelled = await h.core.patchNamespacedPod({
      namespace: 'default',
      name: 'p1',
      body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }],
    });
    const reimaged = await h.core.patchNamespacedPod({
      namespace: 'default',
      name: 'p1',
      body: [
        { op: 'replace', path: '/spec/containers/0/image', value: 'registry.example/app:2.0' },
      ],
    });
    // Assess
    expect([pod, relabelled, reimaged].map((p) => p.metadata?.generation)).toEqual([1, 1, 2]);
  });

  it('refuses to change a pod spec beyond the mutable fields', async () => {
    // Prepare
    const pod: V1Pod = await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('p1'),
    });
    // Act
    const failure = await failureOf(
      h.core.replaceNamespacedPod({
        namespace: 'default',
        name: 'p1',
        body: {
          ...pod,
          spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: 'n1' },
        },
      }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(String(failure.body.message)).toMatch(
      /^Pod "p1" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
    );
  });

  it('refuses a body whose name differs from the URL', async () => {
    // Prepare
    await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    // Act
    const failure = await failureOf(
      h.core.replaceNode({ name: 'n1', body: { metadata: { name: 'n2' } } }),
    );
    // Assess
    expect(failure.code).toBe(400);
    expect(failure.body.message).toBe(
      'the name of the object (n2) does not match the name on the URL (n1)',
    );
  });
});

describe('deletion', () => {
  it('deletes a node at once and answers with a Success Status', async () => {
    // Prepare
    const node = await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    // Act
    const response = await raw('DELETE', '/api/v1/nodes/n1');
    // Assess
    expect(response).toEqual({
      status: 200,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: 'n1', kind: 'nodes', uid: node.metadata?.uid },
      },
    });
    expect(h.server.store.get('nodes', 'n1')).toBeUndefined();
  });

  it('holds a node with finalizers until an update removes the last one', async () => {
    // Prepare
    await h.core.createNode({
      body: { metadata: { name: 'n1', finalizers: ['example.com/drain'] } },
    });
    // Act
    await h.core.deleteNode({ name: 'n1' });
    const held = await h.core.readNode({ name: 'n1' });
    await h.core.patchNode({ name: 'n1', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    // Assess
    expect(held.metadata?.deletionTimestamp).toEqual(new Date('2025-03-04T05:06:07Z'));
    expect(held.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect(h.server.store.get('nodes', 'n1')).toBeUndefined();
  });

  it('answers a delete held by finalizers with the node, marked once: a second delete changes nothing', async () => {
    // Prepare
    await h.core.createNode({
      body: { metadata: { name: 'n1', finalizers: ['example.com/drain'] } },
    });
    // Act
    const first = await raw('DELETE', '/api/v1/nodes/n1');
    const second = await raw('DELETE', '/api/v1/nodes/n1');
    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      kind: 'Node',
      metadata: {
        name: 'n1',
        finalizers: ['example.com/drain'],
        deletionTimestamp: '2025-03-04T05:06:07Z',
        deletionGracePeriodSeconds: 0,
      },
    });
    expect(second).toEqual(first);
  });

  it('takes no new finalizer on a node being deleted, while its own can go and the rest can change', async () => {
    // Prepare
    await h.core.createNode({
      body: { metadata: { name: 'n1', finalizers: ['example.com/a', 'example.com/b'] } },
    });
    await h.core.deleteNode({ name: 'n1' });
    // Act
    const adding = await failureOf(
      h.core.patchNode({
        name: 'n1',
        body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/z' }],
      }),
    );
    const labelled = await h.core.patchNode({
      name: 'n1',
      body: [
        { op: 'add', path: '/metadata/labels', value: { team: 'web' } },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ],
    });
    // Assess
    const message =
      'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/z"}';
    expect(adding.code).toBe(422);
    expect(adding.body).toMatchObject({
      message: `Node "n1" is invalid: metadata.finalizers: Forbidden: ${message}`,
      reason: 'Invalid',
      details: {
        name: 'n1',
        kind: 'Node',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: `Forbidden: ${message}`,
            field: 'metadata.finalizers',
          },
        ],
      },
    });
    expect(labelled.metadata?.finalizers).toEqual(['example.com/b']);
    expect(labelled.metadata?.labels).toEqual({ team: 'web' });
    expect(h.server.store.get('nodes', 'n1')?.metadata).toMatchObject({
      finalizers: ['example.com/b'],
      deletionTimestamp: '2025-03-04T05:06:07Z',
    });
  });

  it('removes a deleted node when an update drops its last finalizer', async () => {
    // Prepare
    await h.core.createNode({
      body: { metadata: { name: 'n1', finalizers: ['example.com/drain'] } },
    });
    await h.core.deleteNode({ name: 'n1' });
    const held = await h.core.readNode({ name: 'n1' });
    // Act
    const updated = await h.core.replaceNode({
      name: 'n1',
      body: { ...held, metadata: { ...held.metadata, finalizers: [] } },
    });
    // Assess
    expect(updated.metadata?.deletionTimestamp).toEqual(new Date('2025-03-04T05:06:07Z'));
    expect(h.server.store.get('nodes', 'n1')).toBeUndefined();
  });

  it('deletes an unscheduled pod at once and answers with the pod', async () => {
    // Prepare
    await h.core.createNamespacedPod({ namespace: 'default', body: podManifest('p1') });
    // Act
    const deleted = await h.core.deleteNamespacedPod({ namespace: 'default', name: 'p1' });
    // Assess
    expect(deleted.metadata?.name).toBe('p1');
    expect(h.server.store.get('pods', 'p1', 'default')).toBeUndefined();
  });

  it('deletes a bound pod gracefully until a zero grace period delete', async () => {
    // Prepare
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('p1', {}, { nodeName: 'n1' }),
    });
    // Act
    const terminating = await h.core.deleteNamespacedPod({ namespace: 'default', name: 'p1' });
    const stillThere = h.server.store.get('pods', 'p1', 'default');
    await h.core.deleteNamespacedPod({ namespace: 'default', name: 'p1', gracePeriodSeconds: 0 });
    // Assess
    expect(terminating.metadata?.deletionTimestamp).toEqual(new Date('2025-03-04T05:06:37Z'));
    expect(terminating.metadata?.deletionGracePeriodSeconds).toBe(30);
    expect(stillThere?.metadata).toMatchObject({ deletionTimestamp: '2025-03-04T05:06:37Z' });
    expect(h.server.store.get('pods', 'p1', 'default')).toBeUndefined();
  });

  it('answers a failed delete precondition with 409 Conflict', async () => {
    // Prepare
    const node = await h.core.createNode({ body: { metadata: { name: 'n1' } } });
    // Act
    const failure = await failureOf(
      h.core.deleteNode({ name: 'n1', body: { preconditions: { uid: 'other' } } }),
    );
    // Assess
    expect(failure.code).toBe(409);
    expect(failure.body.message).toBe(
      `Operation cannot be fulfilled on nodes "n1": StorageError: invalid object, Code: 4, Key: /registry/minions/n1, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${node.metadata?.uid}`,
    );
  });

  it('deletes a namespace with everything in it', async () => {
    // Prepare
    await h.core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    await h.core.createNamespacedPod({ namespace: 'team-a', body: podManifest('p1') });
    // Act
    const terminating = await raw('DELETE', '/api/v1/namespaces/team-a');
    // Assess
    expect(terminating.body).toMatchObject({ kind: 'Namespace', status: { phase: 'Terminating' } });
    expect(h.server.store.list('pods', 'team-a')).toEqual([]);
    expect(h.server.store.get('namespaces', 'team-a')).toBeUndefined();
  });

  it('deletes a selected collection', async () => {
    // Prepare
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('a', { app: 'web' }),
    });
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: podManifest('b', { app: 'db' }),
    });
    // Act
    const deleted = await h.core.deleteCollectionNamespacedPod({
      namespace: 'default',
      labelSelector: 'app=web',
    });
    // Assess
    expect(deleted.kind).toBe('PodList');
    expect(h.server.store.list('pods').map((p) => p.metadata)).toEqual([
      expect.objectContaining({ name: 'b' }),
    ]);
  });
});
