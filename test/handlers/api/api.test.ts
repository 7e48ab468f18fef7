import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BundledInstanceTypes } from '../../../functions/adapters/bundled/bundled-instance-types.ts';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import {
  type ClusterLimits,
  clusterLimits,
} from '../../../functions/domain/limits/cluster-limits.ts';
import { makeApiHandler } from '../../../functions/handlers/api/handler.ts';
import type { Wake, Waker } from '../../../functions/ports/wake.ts';
import { liveDryRun } from '../../../functions/use-cases/plan/live-dry-run.ts';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import { type FakeApiServer, startFakeApiServer } from '../../../simulator/api-server/server.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { apiRequest } from '../../support/api-requests.ts';
import { useFreshStateStores } from '../../support/dynamodb-local.ts';
import {
  aClusterLimitsDocument,
  aMinimalNodeClass,
  aNodePoolDocument,
  SHOP_NODE_CLASS,
  yamlOf,
} from '../../support/karpenter-documents.ts';

const NOW = new Date('2026-11-25T09:00:00Z');
const freshState = useFreshStateStores('api');
let server: FakeApiServer;

beforeEach(async () => {
  server = await startFakeApiServer({ namespaces: ['default', 'shop'] });
});
afterEach(async () => {
  await server.close();
});

const NODE_POOL = yamlOf(
  aNodePoolDocument({
    requirements: {
      'karpenter.sh/capacity-type': ['on-demand'],
      'karpenter.k8s.aws/instance-category': ['c', 'm', 'r'],
    },
    limits: { cpu: '1000' },
  }),
);

class Wakes implements Waker {
  readonly queued: Wake[] = [];
  async wake(wake: Wake): Promise<void> {
    this.queued.push(wake);
  }
}

/** An HTTP API (payload 2.0) request on the IAM-authorized `ANY /v1/{proxy+}` route. */
function request(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): APIGatewayProxyEventV2 {
  return apiRequest(method, path, { ...(body === undefined ? {} : { body }), headers });
}

async function setUp(options: { startingLimits?: ClusterLimits } = {}) {
  const state = await freshState();
  const waker = new Wakes();
  const handler = makeApiHandler({
    state,
    waker,
    now: () => NOW,
    ...options,
    dryRun: () =>
      liveDryRun({
        cluster: kubernetesClusterFrom(kubeConfigFor(server.url)),
        state,
        instanceTypes: new BundledInstanceTypes({
          region: 'us-east-1',
          prices: onDemandPrices('us-east-1'),
        }),
        region: 'us-east-1',
      }),
  });
  const call = async (event: APIGatewayProxyEventV2) => {
    const reply = await handler(event, lambdaContext('api-test'));
    return {
      status: reply.statusCode,
      headers: reply.headers ?? {},
      body: JSON.parse(String(reply.body)),
    };
  };
  return { state, waker, call };
}

describe('the pools API', () => {
  it('creates a NodePool from Karpenter YAML, reports it not ready until its class exists', async () => {
    const { state, waker, call } = await setUp();
    const created = await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      result: 'created',
      kind: 'NodePool',
      metadata: { name: 'default', resourceVersion: '1' },
      status: {
        ready: false,
        notReady: { reason: 'NodeClassNotFound' },
        limits: { cpu: '1000' },
      },
    });
    expect(waker.queued).toEqual([{ source: 'api', reason: 'NodePool default created' }]);
    await call(request('PUT', '/v1/nodeclasses/default', SHOP_NODE_CLASS));
    const read = await call(request('GET', '/v1/nodepools/default'));
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.body.status.ready).toBe(true);
    expect(read.body.spec.disruption.consolidationPolicy).toBe('WhenEmptyOrUnderutilized');
    expect((await state.nodePools.get('default'))?.resourceVersion).toBe(1);
  });

  it('takes JSON too, lists what it holds, and applies an unchanged document as a no-op', async () => {
    const { waker, call } = await setUp();
    const minimal = aMinimalNodeClass();
    const asJson = JSON.stringify({
      ...minimal,
      metadata: { name: 'gpu' },
      spec: { ...minimal.spec, amiSelectorTerms: [{ alias: 'bottlerocket@latest' }] },
    });
    const headers = { 'content-type': 'application/json' };
    expect((await call(request('PUT', '/v1/nodeclasses/gpu', asJson, headers))).status).toBe(201);
    await call(request('PUT', '/v1/nodeclasses/default', SHOP_NODE_CLASS));
    const again = await call(request('PUT', '/v1/nodeclasses/gpu', asJson, headers));
    expect(again.body.result).toBe('unchanged');
    expect(again.body.metadata.resourceVersion).toBe('1');
    expect(waker.queued).toHaveLength(2);
    const list = await call(request('GET', '/v1/nodeclasses'));
    expect(list.body.kind).toBe('List');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'default',
      'gpu',
    ]);
  });

  it('replaces only the version it was read at: If-Match or metadata.resourceVersion', async () => {
    const { state, call } = await setUp();
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    const changed = NODE_POOL.replace('cpu: "1000"', 'cpu: "2000"');
    const ok = await call(request('PUT', '/v1/nodepools/default', changed, { 'if-match': '"1"' }));
    expect(ok.body).toMatchObject({ result: 'configured', metadata: { resourceVersion: '2' } });
    const stale = await call(
      request('PUT', '/v1/nodepools/default', NODE_POOL, { 'if-match': '"1"' }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      'default: the request is for resourceVersion 1, but 2 is stored; read it again and reapply',
    );
    const inBody = NODE_POOL.replace(
      '  name: default\n',
      '  name: default\n  resourceVersion: "1"\n',
    );
    expect((await call(request('PUT', '/v1/nodepools/default', inBody))).status).toBe(409);
    const disagree = await call(
      request('PUT', '/v1/nodepools/default', inBody, { 'if-match': '2' }),
    );
    expect(disagree.status).toBe(400);
    const stored = await state.nodePools.get('default');
    expect(stored?.resourceVersion).toBe(2);
    expect(stored?.document.spec.limits).toEqual({ cpu: '2000' });
    expect(JSON.stringify(stored?.document)).not.toContain('resourceVersion');
  });

  it('lets exactly one of two racing updates of the same version win', async () => {
    const { state, call } = await setUp();
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    const updates = ['2000', '3000'].map((cpu) =>
      call(
        request('PUT', '/v1/nodepools/default', NODE_POOL.replace('"1000"', `"${cpu}"`), {
          'if-match': '1',
        }),
      ),
    );
    const statuses = (await Promise.all(updates)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect((await state.nodePools.get('default'))?.resourceVersion).toBe(2);
  });

  it.each([
    [
      'a field Karpenter rejects',
      NODE_POOL.replace('operator: In', 'operator: Inside'),
      400,
      /spec\.template\.spec\.requirements\[0\]\.operator/,
    ],
    ['another kind', SHOP_NODE_CLASS, 400, /this path takes karpenter\.sh\/v1 NodePool/],
    [
      'another name',
      NODE_POOL.replace('name: default\nspec', 'name: web\nspec'),
      400,
      /metadata\.name is "web" but the path names "default"/,
    ],
    ['two documents', `${NODE_POOL}---\n${NODE_POOL}`, 400, /holds 2 documents/],
    ['no YAML at all', 'kind: [', 400, /body/],
    ['nothing', '', 400, /body is empty/],
    ['too much', `${NODE_POOL}#${'x'.repeat(300 * 1024)}\n`, 413, /over the 262144-byte limit/],
  ])('refuses %s and stores nothing', async (_what, body, status, message) => {
    const { state, waker, call } = await setUp();
    const reply = await call(request('PUT', '/v1/nodepools/default', body));
    expect(reply.status).toBe(status);
    expect(reply.body.error).toMatch(message);
    expect(await state.nodePools.list()).toEqual([]);
    expect(waker.queued).toEqual([]);
  });

  it('stores an AL2 EC2NodeClass (the al2@latest alias), as Karpenter v1 takes it', async () => {
    // Prepare
    const { state, waker, call } = await setUp();
    const al2 = SHOP_NODE_CLASS.replace('alias: al2023@latest', 'alias: al2@latest');

    // Act
    const reply = await call(request('PUT', '/v1/nodeclasses/default', al2));

    // Assess
    expect(reply.status).toBe(201);
    const stored = await state.nodeClasses.get('default');
    expect(stored?.document.spec.amiSelectorTerms).toEqual([{ alias: 'al2@latest' }]);
    expect(waker.queued).toHaveLength(1);
  });

  it('names the line of a bad field', async () => {
    const { call } = await setUp();
    const bad = NODE_POOL.replace('cpu: "1000"', 'cpu: "lots"');
    const line = bad.split('\n').findIndex((row) => row.includes('"lots"')) + 1;
    const reply = await call(request('PUT', '/v1/nodepools/default', bad));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ field: 'spec.limits.cpu', line });
    expect(reply.body.error).toBe(
      `body:${line}: spec.limits.cpu: "lots" is not a quantity such as 500m, 2Gi or 1.5`,
    );
  });

  it('deletes a NodePool and marks its claims for deletion, as Karpenter does', async () => {
    const { state, waker, call } = await setUp();
    await call(request('PUT', '/v1/nodeclasses/default', SHOP_NODE_CLASS));
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    for (const name of ['default-a', 'default-b']) {
      await state.nodeClaims.create({
        ...aNewNodeClaim({ name, phase: 'Initialized', nodeName: `${name}.node` }),
      });
    }
    const deleted = await call(request('DELETE', '/v1/nodepools/default'));
    expect(deleted.body).toEqual({
      result: 'deleted',
      kind: 'NodePool',
      name: 'default',
      nodeClaimsMarkedForDeletion: ['default-a', 'default-b'],
    });
    const claims = await state.nodeClaims.list();
    expect(claims.map((c) => [c.phase, c.disruption?.reason])).toEqual([
      ['Disrupting', 'NodePoolDeleted'],
      ['Disrupting', 'NodePoolDeleted'],
    ]);
    expect(waker.queued.at(-1)).toEqual({ source: 'api', reason: 'NodePool default deleted' });
    const inUse = await call(request('DELETE', '/v1/nodeclasses/default'));
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatch(/in use by NodeClaim default-a, NodeClaim default-b/);
    expect((await call(request('DELETE', '/v1/nodepools/default'))).status).toBe(404);
  });

  it('answers unknown routes 404 and wrong methods 405 with the methods allowed', async () => {
    const { call } = await setUp();
    const missing = await call(request('GET', '/v1/nodegroups'));
    expect(missing.status).toBe(404);
    const wrong = await call(request('POST', '/v1/nodepools/default', NODE_POOL));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, PUT, DELETE');
    expect((await call(request('GET', '/v1/nodepools/Not_A_Name'))).status).toBe(400);
  });

  it('shows per pool its nodes, claims in flight, resources, cost and disruptions', async () => {
    const { state, call } = await setUp();
    await call(request('PUT', '/v1/nodeclasses/default', SHOP_NODE_CLASS));
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    const launched = (name: string, phase: 'Initialized' | 'Launched') => ({
      ...aNewNodeClaim({ name, phase, instanceId: `i-${name}` }),
      capacity: { cpu: 4000, memory: 16 * 1024 ** 3, pods: 58 },
    });
    await state.nodeClaims.create(launched('default-a', 'Initialized'));
    await state.nodeClaims.create(launched('default-b', 'Launched'));
    const gone = {
      nodeClaim: 'default-old',
      nodePool: 'default',
      nodeName: 'ip-10-0-9-9.ec2.internal',
      reason: 'Drifted',
      message: 'AMIDrift: AMI ami-old is no longer selected',
      decidedAt: '2026-11-25T07:50:00.000Z',
      endedAt: '2026-11-25T08:00:00.000Z',
    };
    await state.pastDisruptions.record(gone, new Date('2026-11-25T08:00:00Z'), 86_400);
    const status = await call(request('GET', '/v1/status'));
    expect(status.body.nodePools).toEqual([
      expect.objectContaining({
        name: 'default',
        ready: true,
        nodes: 1,
        inFlight: 1,
        resources: { cpu: '8', memory: '32Gi', pods: '116', nodes: '2' },
        limits: { cpu: '1000' },
        disruptions: [],
        recentDisruptions: [
          {
            nodeClaim: 'default-old',
            nodeName: 'ip-10-0-9-9.ec2.internal',
            reason: 'Drifted',
            message: 'AMIDrift: AMI ami-old is no longer selected',
            decidedAt: '2026-11-25T07:50:00.000Z',
            endedAt: '2026-11-25T08:00:00.000Z',
          },
        ],
      }),
    ]);
    expect(status.body.nodePools[0].costPerHour).toBeGreaterThan(0);
    expect(status.body.nodePools[0].limitUsage).toEqual({ cpu: { used: '8', limit: '1000' } });
  });

  it("shows usage against every limit of the cluster, and the pools' together", async () => {
    const { state, call } = await setUp({ startingLimits: clusterLimits({ nodes: '10' }) });
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    const claim = (name: string, pricePerHour: number) => ({
      ...aNewNodeClaim({ name, phase: 'Initialized', instanceId: `i-${name}` }),
      offering: { ...aNewNodeClaim().offering, pricePerHour },
      capacity: { cpu: 2000, memory: 8 * 1024 ** 3 },
    });
    await state.nodeClaims.create(claim('default-a', 0.0816));
    await state.nodeClaims.create(claim('default-b', 0.1));
    const before = await call(request('GET', '/v1/status'));
    expect(before.body.cluster).toEqual({
      nodes: 2,
      costPerHour: 0.1816,
      limits: { nodes: '10' },
      limitUsage: { nodes: { used: '2', limit: '10' } },
    });
    await call(request('PUT', '/v1/limits', LIMITS.replace('"400"', '"2"')));
    const after = await call(request('GET', '/v1/status'));
    expect(after.body.cluster.limitUsage).toEqual({
      nodes: { used: '2', limit: '2' },
      'nodesmith.io/hourly-cost': { used: '$0.18', limit: '$900.00' },
    });
  });

  it('plans against the live cluster what a pass would launch now, with its cost', async () => {
    const { call } = await setUp();
    await call(request('PUT', '/v1/nodeclasses/default', SHOP_NODE_CLASS));
    await call(request('PUT', '/v1/nodepools/default', NODE_POOL));
    for (let i = 0; i < 6; i++) {
      server.store.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${i}`, namespace: 'shop', uid: `uid-web-${i}` },
        spec: {
          containers: [
            { name: 'web', image: 'web', resources: { requests: { cpu: '2', memory: '4Gi' } } },
          ],
        },
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
        },
      });
    }
    const plan = await call(request('POST', '/v1/plan'));
    expect(plan.status).toBe(200);
    expect(plan.body.nodeClaims.length).toBeGreaterThan(0);
    expect(plan.body.nodeClaims.flatMap((c: { pods: string[] }) => c.pods)).toHaveLength(6);
    expect(plan.body.summary).toMatchObject({ pendingPods: 6, priceSource: 'us-east-1' });
    expect(plan.body.summary.pricePerHour).toBeGreaterThan(0);
  });
});

const LIMITS = yamlOf(aClusterLimitsDocument({ nodes: '400', 'nodesmith.io/hourly-cost': '900' }));

describe('the cluster limits API', () => {
  it("has none until they are set, then the deployment's starting value until one is stored", async () => {
    const none = await (await setUp()).call(request('GET', '/v1/limits'));
    expect(none.status).toBe(404);
    const { call, state } = await setUp({ startingLimits: clusterLimits({ nodes: '100' }) });
    const starting = await call(request('GET', '/v1/limits'));
    expect(starting.status).toBe(200);
    expect(starting.body).toMatchObject({
      kind: 'ClusterLimits',
      spec: { limits: { nodes: '100' } },
      status: { source: 'deployment' },
    });
    expect(starting.body.metadata.resourceVersion).toBeUndefined();
    const put = await call(request('PUT', '/v1/limits', LIMITS));
    expect(put.status).toBe(201);
    const stored = await call(request('GET', '/v1/limits'));
    expect(stored.body).toMatchObject({
      metadata: { name: 'cluster', resourceVersion: '1' },
      spec: { limits: { nodes: '400', 'nodesmith.io/hourly-cost': '900' } },
      status: { source: 'api' },
    });
    expect(stored.headers.etag).toBe('"1"');
    expect((await state.clusterLimits.get('cluster'))?.document.spec.limits).toEqual({
      nodes: '400',
      'nodesmith.io/hourly-cost': '900',
    });
  });

  it('replaces only the version it was read at, and wakes the controller on a change', async () => {
    const { call, waker } = await setUp();
    await call(request('PUT', '/v1/limits', LIMITS));
    const lower = LIMITS.replace('"900"', '"500"');
    const ok = await call(request('PUT', '/v1/limits', lower, { 'if-match': '"1"' }));
    expect(ok.body).toMatchObject({ result: 'configured', metadata: { resourceVersion: '2' } });
    const stale = await call(request('PUT', '/v1/limits', LIMITS, { 'if-match': '"1"' }));
    expect(stale.status).toBe(409);
    const same = await call(request('PUT', '/v1/limits', lower));
    expect(same.body.result).toBe('unchanged');
    expect(waker.queued.map((w) => w.reason)).toEqual([
      'ClusterLimits created',
      'ClusterLimits configured',
    ]);
  });

  it('refuses a misspelt limit, naming the field and line, and stores nothing', async () => {
    const { call, state } = await setUp();
    const bad = LIMITS.replace('nodesmith.io/hourly-cost', 'hourly-cost');
    const reply = await call(request('PUT', '/v1/limits', bad));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ line: 8 });
    expect(reply.body.error).toContain('unknown limit "hourly-cost"');
    expect(await state.clusterLimits.get('cluster')).toBeUndefined();
  });
});

const NODE_OVERLAY = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: spot-discount
spec:
  weight: 10
  requirements:
    - key: karpenter.sh/capacity-type
      operator: In
      values: ["spot"]
  priceAdjustment: "-10%"
`;

describe('the NodeOverlays API', () => {
  it('creates an overlay, waking the controller, then gets and lists it', async () => {
    // Prepare
    const { state, waker, call } = await setUp();

    // Act
    const created = await call(request('PUT', '/v1/nodeoverlays/spot-discount', NODE_OVERLAY));
    const read = await call(request('GET', '/v1/nodeoverlays/spot-discount'));
    const list = await call(request('GET', '/v1/nodeoverlays'));

    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      result: 'created',
      apiVersion: 'karpenter.sh/v1alpha1',
      kind: 'NodeOverlay',
      metadata: { name: 'spot-discount', resourceVersion: '1' },
      spec: { weight: 10, priceAdjustment: '-10%' },
    });
    expect(waker.queued).toEqual([{ source: 'api', reason: 'NodeOverlay spot-discount created' }]);
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.body.spec.requirements).toEqual([
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ]);
    expect(list.body.kind).toBe('List');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'spot-discount',
    ]);
    expect((await state.nodeOverlays.get('spot-discount'))?.document.spec.weight).toBe(10);
  });

  it('replaces only the version it was read at, and wakes the controller on each change', async () => {
    // Prepare
    const { state, waker, call } = await setUp();
    await call(request('PUT', '/v1/nodeoverlays/spot-discount', NODE_OVERLAY));
    const deeper = NODE_OVERLAY.replace('"-10%"', '"-20%"');
    const path = '/v1/nodeoverlays/spot-discount';

    // Act
    const updated = await call(request('PUT', path, deeper, { 'if-match': '"1"' }));
    const stale = await call(request('PUT', path, NODE_OVERLAY, { 'if-match': '"1"' }));
    const same = await call(request('PUT', path, deeper));

    // Assess
    expect(updated.body).toMatchObject({
      result: 'configured',
      metadata: { resourceVersion: '2' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      'spot-discount: the request is for resourceVersion 1, but 2 is stored; read it again and reapply',
    );
    expect(same.body.result).toBe('unchanged');
    expect((await state.nodeOverlays.get('spot-discount'))?.document.spec.priceAdjustment).toBe(
      '-20%',
    );
    expect(waker.queued.map((w) => w.reason)).toEqual([
      'NodeOverlay spot-discount created',
      'NodeOverlay spot-discount configured',
    ]);
  });

  it('deletes an overlay at once, waking the controller, and then has none to delete', async () => {
    // Prepare
    const { state, waker, call } = await setUp();
    await call(request('PUT', '/v1/nodeoverlays/spot-discount', NODE_OVERLAY));

    // Act
    const stale = await call(
      request('DELETE', '/v1/nodeoverlays/spot-discount', undefined, { 'if-match': '2' }),
    );
    const deleted = await call(request('DELETE', '/v1/nodeoverlays/spot-discount'));
    const again = await call(request('DELETE', '/v1/nodeoverlays/spot-discount'));

    // Assess
    expect(stale.status).toBe(409);
    expect(deleted.body).toEqual({ result: 'deleted', kind: 'NodeOverlay', name: 'spot-discount' });
    expect(await state.nodeOverlays.list()).toEqual([]);
    expect(waker.queued.at(-1)).toEqual({
      source: 'api',
      reason: 'NodeOverlay spot-discount deleted',
    });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('NodeOverlay spot-discount does not exist');
  });

  it.each([
    [
      'capacity Kubernetes reports itself',
      NODE_OVERLAY.replace('  priceAdjustment: "-10%"\n', '  capacity:\n    cpu: 1\n'),
      { field: 'spec.capacity.cpu', line: 12 },
      'cpu cannot be overlaid: capacity adds extended resources only',
    ],
    [
      'both a price and an adjustment',
      `${NODE_OVERLAY}  price: "0.5"\n`,
      { field: 'spec.priceAdjustment', line: 11 },
      "cannot set both 'price' and 'priceAdjustment'",
    ],
    [
      'a NodePool',
      NODE_POOL,
      {},
      'body is karpenter.sh/v1 NodePool; this path takes karpenter.sh/v1alpha1 NodeOverlay',
    ],
  ])('refuses %s with a 400 and stores nothing', async (_what, body, located, message) => {
    // Prepare
    const { state, waker, call } = await setUp();

    // Act
    const reply = await call(request('PUT', '/v1/nodeoverlays/spot-discount', body));

    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject(located);
    expect(reply.body.error).toContain(message);
    expect(await state.nodeOverlays.list()).toEqual([]);
    expect(waker.queued).toEqual([]);
  });
});
