import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureOf, type Harness, startHarness } from './harness.ts';

const NOW = new Date('2025-03-04T05:06:07.890Z');
const NODE_CLAIMS = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' } as const;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
let h: Harness;

beforeEach(async () => {
  h = await startHarness({ now: () => NOW });
});

afterEach(async () => {
  await h.server.close();
});

type Json = Record<string, unknown>;

/** A NodeClaim as Karpenter creates it, before it writes a status. */
function nodeClaim(name: string, metadata: Json = {}): Json {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { ...metadata, name },
    spec: {
      requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] }],
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    },
  };
}

function create(name: string, metadata: Json = {}): Promise<Json> {
  return h.customObjects.createClusterCustomObject({
    ...NODE_CLAIMS,
    body: nodeClaim(name, metadata),
  }) as Promise<Json>;
}

function metadataOf(object: unknown): Json | undefined {
  return (object as Json | undefined)?.metadata as Json | undefined;
}

async function raw(method: string, path: string, body?: string, contentType = 'application/json') {
  const response = await fetch(`${h.server.url}${path}`, {
    method,
    headers: { 'content-type': contentType },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('karpenter.sh/v1 nodeclaims', () => {
  it('are cluster-scoped, with server-owned metadata, a generation and no status on create', async () => {
    // Act
    const created = await h.customObjects.createClusterCustomObject({
      ...NODE_CLAIMS,
      body: { ...nodeClaim('default-a'), status: { nodeName: 'n1' } },
    });
    const read = await h.customObjects.getClusterCustomObject({
      ...NODE_CLAIMS,
      name: 'default-a',
    });
    // Assess
    expect(read).toEqual(created);
    expect(read).toMatchObject({ kind: 'NodeClaim', apiVersion: 'karpenter.sh/v1' });
    expect(metadataOf(read)).toMatchObject({
      name: 'default-a',
      uid: expect.any(String),
      creationTimestamp: '2025-03-04T05:06:07Z',
      generation: 1,
      resourceVersion: h.server.store.resourceVersion,
    });
    expect(metadataOf(read)?.namespace).toBeUndefined();
    expect((read as Json).status).toBeUndefined();
  });

  it('list in pages whose items keep kind and apiVersion, as unstructured lists do', async () => {
    // Prepare
    for (const name of ['default-c', 'default-a', 'default-b']) await create(name);
    // Act
    const first = (await h.customObjects.listClusterCustomObject({ ...NODE_CLAIMS, limit: 2 })) as {
      items: Json[];
      metadata: Json;
    };
    const rest = (await h.customObjects.listClusterCustomObject({
      ...NODE_CLAIMS,
      limit: 2,
      _continue: first.metadata.continue as string,
    })) as { items: Json[]; metadata: Json };
    // Assess
    expect(first).toMatchObject({ kind: 'NodeClaimList', apiVersion: 'karpenter.sh/v1' });
    expect([...first.items, ...rest.items].map((item) => metadataOf(item)?.name)).toEqual([
      'default-a',
      'default-b',
      'default-c',
    ]);
    expect(first.items[0]).toMatchObject({ kind: 'NodeClaim', apiVersion: 'karpenter.sh/v1' });
    expect(rest.metadata.continue).toBeUndefined();
  });

  it('refuse a NodeClaim without the fields the CRD requires with 422 Invalid', async () => {
    // Prepare
    const body = nodeClaim('default-a');
    body.spec = { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' } };
    // Act
    const failure = await failureOf(
      h.customObjects.createClusterCustomObject({ ...NODE_CLAIMS, body }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body.message).toBe(
      'NodeClaim.karpenter.sh "default-a" is invalid: [spec.requirements: Required value, spec.nodeClassRef.name: Required value]',
    );
    expect(h.server.store.get('nodeclaims', 'default-a')).toBeUndefined();
  });

  it('refuse a change of spec, which the CRD makes immutable', async () => {
    // Prepare
    await create('default-a');
    // Act
    const failure = await failureOf(
      h.customObjects.patchClusterCustomObject(
        { ...NODE_CLAIMS, name: 'default-a', body: { spec: { expireAfter: '24h' } } },
        MERGE_PATCH,
      ),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body.message).toBe(
      'NodeClaim.karpenter.sh "default-a" is invalid: spec: Invalid value: "object": spec is immutable',
    );
  });

  it('take their status through the status subresource only', async () => {
    // Prepare
    await create('default-a');
    const status = { providerID: 'aws:///us-east-1a/i-0123', nodeName: 'n1' };
    // Act
    await h.customObjects.patchClusterCustomObject(
      { ...NODE_CLAIMS, name: 'default-a', body: { status: { nodeName: 'ignored' } } },
      MERGE_PATCH,
    );
    await h.customObjects.patchClusterCustomObjectStatus(
      { ...NODE_CLAIMS, name: 'default-a', body: { status } },
      MERGE_PATCH,
    );
    // Assess
    expect(h.server.store.get('nodeclaims', 'default-a')?.status).toEqual(status);
  });

  it('merge-patch their finalizers against a resourceVersion, answering a stale one with 409 Conflict', async () => {
    // Prepare
    const created = await create('default-a', { finalizers: ['karpenter.sh/termination'] });
    const version = metadataOf(created)?.resourceVersion as string;
    await h.customObjects.patchClusterCustomObject(
      { ...NODE_CLAIMS, name: 'default-a', body: { metadata: { labels: { team: 'a' } } } },
      MERGE_PATCH,
    );
    const body = { metadata: { finalizers: [], resourceVersion: version } };
    // Act
    const failure = await failureOf(
      h.customObjects.patchClusterCustomObject(
        { ...NODE_CLAIMS, name: 'default-a', body },
        MERGE_PATCH,
      ),
    );
    // Assess
    expect(failure.code).toBe(409);
    expect(failure.body.message).toBe(
      'Operation cannot be fulfilled on nodeclaims.karpenter.sh "default-a": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(metadataOf(h.server.store.get('nodeclaims', 'default-a'))?.finalizers).toEqual([
      'karpenter.sh/termination',
    ]);
  });

  it('refuse a strategic merge patch with 415, naming the patch types custom resources take', async () => {
    // Prepare
    await create('default-a');
    // Act
    const response = await raw(
      'PATCH',
      '/apis/karpenter.sh/v1/nodeclaims/default-a',
      JSON.stringify({ metadata: { labels: { team: 'a' } } }),
      'application/strategic-merge-patch+json',
    );
    // Assess
    expect(response.status).toBe(415);
    expect(response.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
    );
  });

  it('are held by a finalizer on delete, and go once a merge patch removes the last one', async () => {
    // Prepare
    await create('default-a', { finalizers: ['karpenter.sh/termination', 'other.io/keep'] });
    // Act
    await h.customObjects.deleteClusterCustomObject({ ...NODE_CLAIMS, name: 'default-a' });
    const held = h.server.store.get('nodeclaims', 'default-a');
    await h.customObjects.patchClusterCustomObject(
      { ...NODE_CLAIMS, name: 'default-a', body: { metadata: { finalizers: ['other.io/keep'] } } },
      MERGE_PATCH,
    );
    const stillHeld = h.server.store.get('nodeclaims', 'default-a');
    await h.customObjects.patchClusterCustomObject(
      { ...NODE_CLAIMS, name: 'default-a', body: { metadata: { finalizers: [] } } },
      MERGE_PATCH,
    );
    // Assess
    expect(metadataOf(held)).toMatchObject({
      deletionTimestamp: '2025-03-04T05:06:07Z',
      deletionGracePeriodSeconds: 0,
      finalizers: ['karpenter.sh/termination', 'other.io/keep'],
    });
    expect(metadataOf(stillHeld)?.finalizers).toEqual(['other.io/keep']);
    expect(h.server.store.get('nodeclaims', 'default-a')).toBeUndefined();
  });

  it('are deleted at once without finalizers', async () => {
    // Prepare
    await create('default-a');
    // Act
    const response = await raw('DELETE', '/apis/karpenter.sh/v1/nodeclaims/default-a');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect(h.server.store.get('nodeclaims', 'default-a')).toBeUndefined();
  });

  it('answer a missing NodeClaim with 404 naming the group', async () => {
    // Act
    const failure = await failureOf(
      h.customObjects.getClusterCustomObject({ ...NODE_CLAIMS, name: 'gone' }),
    );
    // Assess
    expect(failure.code).toBe(404);
    expect(failure.body.message).toBe('nodeclaims.karpenter.sh "gone" not found');
  });
});

describe('a server without Karpenter’s CRDs', () => {
  it('answers every nodeclaims path with the generic 404, as for an unknown resource', async () => {
    // Prepare
    const bare = await startHarness({ customResourceDefinitions: false });
    bare.server.store.create('nodeclaims', nodeClaim('default-a') as never);
    try {
      // Act
      const list = await failureOf(bare.customObjects.listClusterCustomObject(NODE_CLAIMS));
      const read = await failureOf(
        bare.customObjects.getClusterCustomObject({ ...NODE_CLAIMS, name: 'default-a' }),
      );
      // Assess
      expect(list.code).toBe(404);
      expect(list.body.reason).toBe('NotFound');
      expect(read.code).toBe(404);
      expect(await bare.core.listNode()).toMatchObject({ items: [] });
    } finally {
      await bare.server.close();
    }
  });
});
