import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectFailure, failureOf, type Harness, podManifest, startHarness } from './harness.ts';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
let h: Harness;

beforeEach(async () => {
  h = await startHarness();
  h.server.store.create('nodes', {
    metadata: { name: 'n1', labels: { zone: 'a', pool: 'p' }, finalizers: ['a.example/x'] },
    spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady' },
        { type: 'MemoryPressure', status: 'False' },
      ],
    },
  });
});

afterEach(async () => {
  await h.server.close();
});

describe('JSON merge patch', () => {
  it('merges maps and removes keys set to null', async () => {
    // Act
    const node = await h.core.patchNode(
      { name: 'n1', body: { metadata: { labels: { zone: null, team: 'x' } } } },
      merge,
    );
    // Assess
    expect(node.metadata?.labels).toEqual({ pool: 'p', team: 'x' });
    expect(h.server.requests.entries[0]?.contentType).toBe('application/merge-patch+json');
  });

  it('replaces lists whole', async () => {
    // Act
    const node = await h.core.patchNode(
      { name: 'n1', body: { spec: { taints: [{ key: 'other', effect: 'NoExecute' }] } } },
      merge,
    );
    // Assess
    expect(node.spec?.taints).toEqual([{ key: 'other', effect: 'NoExecute' }]);
  });

  it('answers a patch with a stale resourceVersion with 409 Conflict', async () => {
    // Act
    const failure = await failureOf(
      h.core.patchNode(
        { name: 'n1', body: { metadata: { resourceVersion: '1', labels: { a: 'b' } } } },
        merge,
      ),
    );
    // Assess
    expect(failure.code).toBe(409);
    expect(failure.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on nodes "n1": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('applies a patch carrying the current resourceVersion', async () => {
    // Prepare
    const current = h.server.store.resourceVersion;
    // Act
    const node = await h.core.patchNode(
      { name: 'n1', body: { metadata: { resourceVersion: current, labels: { a: 'b' } } } },
      merge,
    );
    // Assess
    expect(Number(node.metadata?.resourceVersion)).toBe(Number(current) + 1);
  });

  it('answers a patch of a missing object with 404 NotFound', async () => {
    // Act
    const failure = await failureOf(
      h.core.patchNode({ name: 'n9', body: { metadata: {} } }, merge),
    );
    // Assess
    expect(failure.body).toMatchObject({ code: 404, message: 'nodes "n9" not found' });
  });
});

describe('strategic merge patch', () => {
  it('merges conditions by type through the status subresource', async () => {
    // Act
    const node = await h.core.patchNodeStatus(
      {
        name: 'n1',
        body: {
          status: {
            conditions: [
              { type: 'Ready', status: 'False', reason: 'KubeletNotReady' },
              { type: 'DiskPressure', status: 'False' },
            ],
          },
        },
      },
      strategic,
    );
    // Assess
    expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Ready', 'False', 'KubeletNotReady'],
      ['MemoryPressure', 'False', undefined],
      ['DiskPressure', 'False', undefined],
    ]);
  });

  it('replaces node taints whole, as the real server does for this atomic list', async () => {
    // Act
    const node = await h.core.patchNode(
      {
        name: 'n1',
        body: { spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } },
      },
      strategic,
    );
    // Assess
    expect(node.spec?.taints).toEqual([{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }]);
  });

  it('merges labels and finalizers, and deletes from primitive lists on request', async () => {
    // Act
    const node = await h.core.patchNode(
      {
        name: 'n1',
        body: {
          metadata: {
            labels: { team: 'x' },
            finalizers: ['b.example/y'],
            '$deleteFromPrimitiveList/finalizers': ['a.example/x'],
          },
        },
      },
      strategic,
    );
    // Assess
    expect(node.metadata?.labels).toEqual({ zone: 'a', pool: 'p', team: 'x' });
    expect(node.metadata?.finalizers).toEqual(['b.example/y']);
  });

  it('merges containers by name and deletes list items marked $patch: delete', async () => {
    // Prepare
    const body = podManifest('p1');
    body.spec.containers.push({ name: 'sidecar', image: 'registry.example/side:1' });
    await h.core.createNamespacedPod({ namespace: 'default', body });
    // Act
    const pod = await h.core.patchNamespacedPod(
      {
        namespace: 'default',
        name: 'p1',
        body: { spec: { containers: [{ name: 'sidecar', image: 'registry.example/side:2' }] } },
      },
      strategic,
    );
    const status = await h.core.patchNamespacedPodStatus(
      {
        namespace: 'default',
        name: 'p1',
        body: {
          status: {
            conditions: [
              { type: 'Ready', status: 'True' },
              { type: 'Initialized', status: 'True' },
            ],
          },
        },
      },
      strategic,
    );
    const trimmed = await h.core.patchNamespacedPodStatus(
      {
        namespace: 'default',
        name: 'p1',
        body: { status: { conditions: [{ type: 'Ready', $patch: 'delete' }] } },
      },
      strategic,
    );
    // Assess
    expect(pod.spec?.containers.map((c) => [c.name, c.image])).toEqual([
      ['app', 'registry.example/app:1.0'],
      ['sidecar', 'registry.example/side:2'],
    ]);
    expect(status.status?.conditions?.map((c) => c.type)).toEqual(['Ready', 'Initialized']);
    expect(trimmed.status?.conditions?.map((c) => c.type)).toEqual(['Initialized']);
  });

  it('changes no status through the main resource', async () => {
    // Act
    const node = await h.core.patchNode(
      { name: 'n1', body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } } },
      strategic,
    );
    // Assess
    expect(node.status?.conditions?.[0]?.status).toBe('True');
  });
});

describe('JSON patch', () => {
  it('is the client default and applies add, replace and remove', async () => {
    // Act
    const node = await h.core.patchNode({
      name: 'n1',
      body: [
        { op: 'test', path: '/metadata/labels/zone', value: 'a' },
        {
          op: 'add',
          path: '/spec/taints/-',
          value: { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' },
        },
        { op: 'replace', path: '/metadata/labels/pool', value: 'q' },
        { op: 'remove', path: '/metadata/labels/zone' },
      ],
    });
    // Assess
    expect(h.server.requests.entries[0]?.contentType).toBe('application/json-patch+json');
    expect(node.spec?.taints?.map((t) => t.key)).toEqual(['dedicated', 'karpenter.sh/disrupted']);
    expect(node.metadata?.labels).toEqual({ pool: 'q' });
  });

  it('answers a failed test operation with the generic 422', async () => {
    // Act
    const failure = await failureOf(
      h.core.patchNode({
        name: 'n1',
        body: [{ op: 'test', path: '/metadata/labels/zone', value: 'b' }],
      }),
    );
    // Assess
    expectFailure(failure, 422, {
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
    });
    expect(h.server.store.get('nodes', 'n1')?.metadata).toMatchObject({
      labels: { zone: 'a', pool: 'p' },
    });
  });

  it('answers a patch document that is not a list with 400 BadRequest', async () => {
    // Act
    const response = await fetch(`${h.server.url}/api/v1/nodes/n1`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: '{"op":"add"}',
    });
    // Assess
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
  });

  it('validates the patched object', async () => {
    // Act
    const failure = await failureOf(
      h.core.patchNode({
        name: 'n1',
        body: [{ op: 'add', path: '/spec/taints/-', value: { key: 'k', effect: 'Sometimes' } }],
      }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body.message).toBe(
      'Node "n1" is invalid: spec.taints[1].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
  });
});

describe('other patch types', () => {
  it('answers server-side apply with 415 UnsupportedMediaType naming the accepted types', async () => {
    // Act
    const failure = await failureOf(
      h.core.patchNode(
        { name: 'n1', body: { metadata: { labels: { a: 'b' } } }, fieldManager: 'test' },
        setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
      ),
    );
    // Assess
    expectFailure(failure, 415, {
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
      reason: 'UnsupportedMediaType',
    });
  });
});
