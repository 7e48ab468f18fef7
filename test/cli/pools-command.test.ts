/**
 * `nodesmith pools`, run in the test's process with an environment of its own, against the API
 * served locally behind a SigV4 check, with the state on DynamoDB Local: the user's credentials
 * come from the environment as the SDK reads them, and requests the signature check refuses
 * never reach the function.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApiHandler } from '../../functions/handlers/api/handler.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import { aNewNodeClaim } from '../contracts/state-fixtures.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { useFreshStateStores } from '../support/dynamodb-local.ts';
import {
  aNodePoolDocument,
  CLUSTER_LIMITS,
  SHOP_NODE_CLASS,
  yamlOf,
} from '../support/karpenter-documents.ts';
import { type SignedApiServer, startSignedApiServer } from '../support/signed-api-server.ts';

const CALLER = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'eu-west-1',
};

const POOLS_YAML = `${SHOP_NODE_CLASS}---\n${yamlOf(
  aNodePoolDocument({
    name: 'web',
    requirements: { 'karpenter.sh/capacity-type': ['spot'] },
    limits: { cpu: '64' },
  }),
)}`;

/** Four overlays of weight 10 that give each NVIDIA type four time-sliced GPUs per GPU. */
const GPU_SLICES = fileURLToPath(
  new URL(
    '../fixtures/public/karpenter-blueprints/blueprints/node-overlay/node-overlay-gpu-slices.yaml',
    import.meta.url,
  ),
);
const SLICES = ['gpu-slices-1gpu', 'gpu-slices-2gpu', 'gpu-slices-4gpu', 'gpu-slices-8gpu'];

const SPOT_DISCOUNT = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: spot-discount
spec:
  requirements:
    - key: karpenter.sh/capacity-type
      operator: In
      values: ["spot"]
  priceAdjustment: "-10%"
`;

const freshState = useFreshStateStores('pools-cli');
let server: SignedApiServer;
let state: StateStore;

beforeEach(async () => {
  state = await freshState();
  const handler = makeApiHandler({
    state,
    waker: { wake: async () => {} },
    now: () => new Date('2026-11-25T09:00:00Z'),
    dryRun: async () => {
      throw new Error('not used here');
    },
  });
  server = await startSignedApiServer(handler, CALLER);
});

afterEach(async () => {
  await server.close();
});

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pools-')), 'pools.yaml');
  writeFileSync(path, text);
  return path;
}

/** The CLI with credentials in the environment and no profile files to fall back on. */
function pools(args: string[], credentials = CALLER) {
  return nodesmith(['pools', ...args], credentials);
}

function nodesmith(args: string[], credentials = CALLER) {
  return runCliInProcess(args, {
    env: {
      PATH: process.env.PATH,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: CALLER.region,
      AWS_CONFIG_FILE: '/nonexistent',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
      AWS_EC2_METADATA_DISABLED: 'true',
      NODESMITH_API_URL: server.url,
    },
  });
}

describe('nodesmith pools', () => {
  it('applies a file as kubectl would report it, classes first, and again as unchanged', async () => {
    const path = file(POOLS_YAML);
    const first = await pools(['apply', '-f', path]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      'ec2nodeclass.karpenter.k8s.aws/default created\nnodepool.karpenter.sh/web created\n',
    );
    const again = await pools(['apply', '-f', path]);
    expect(again.stdout).toBe(
      'ec2nodeclass.karpenter.k8s.aws/default unchanged\nnodepool.karpenter.sh/web unchanged\n',
    );
    const changed = await pools(['apply', '-f', file(POOLS_YAML.replace('"64"', '"128"'))]);
    expect(changed.stdout).toContain('nodepool.karpenter.sh/web configured');
    expect((await state.nodePools.get('web'))?.document.spec.limits).toEqual({ cpu: '128' });
  }, 60_000);

  it('gets pools as a table, YAML or JSON, and shows their status', async () => {
    await pools(['apply', '-f', file(POOLS_YAML)]);
    await state.nodeClaims.create({
      ...aNewNodeClaim({
        name: 'web-a1b2c',
        nodePool: 'web',
        phase: 'Initialized',
        instanceId: 'i-0a',
      }),
      capacity: { cpu: 4000, memory: 16 * 1024 ** 3 },
    });
    const table = await pools(['get']);
    expect(table.stdout.split('\n').slice(0, 2)).toEqual([
      'NAME  NODECLASS  NODES  READY  VERSION',
      'web   default    1      True   1',
    ]);
    const yaml = await pools(['get', 'nodepools', 'web', '-o', 'yaml']);
    expect(yaml.stdout).toContain('kind: NodePool\n');
    expect(yaml.stdout).toContain("resourceVersion: '1'");
    const json = JSON.parse((await pools(['get', 'nodeclasses', '-o', 'json'])).stdout);
    expect(json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'default',
    ]);
    const status = await pools(['status']);
    expect(status.stdout.split('\n')[1]).toMatch(
      /^web\s+True\s+1\s+0\s+4\/64\s+16Gi\s+\$\d+\.\d{4}\s+cpu 4\/64\s+0\s+-$/,
    );
    expect(status.stdout).toMatch(/\ncluster: 1 nodes, \$\d+\.\d{4} per hour; limits: -\n$/);
  }, 60_000);

  it('deletes a NodePool and says its nodes are going', async () => {
    await pools(['apply', '-f', file(POOLS_YAML)]);
    await state.nodeClaims.create(
      aNewNodeClaim({ name: 'web-a1b2c', nodePool: 'web', phase: 'Initialized' }),
    );
    const deleted = await pools(['delete', 'nodepool', 'web']);
    expect(deleted.stdout).toBe(
      'nodepool.karpenter.sh/web deleted; 1 node claims are being deleted\n',
    );
    const missing = await pools(['delete', 'nodepool', 'web']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('nodesmith: NodePool web does not exist (HTTP 404)\n');
  }, 60_000);

  it('refuses a bad file before sending anything, naming file, line and field', async () => {
    // The requirement's values as one string, not a list
    const path = file(POOLS_YAML.replace(/values:\n *- spot/, 'values: spot'));
    const result = await pools(['apply', '-f', path]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^nodesmith: ${path}:\\d+: spec\\.template\\.spec\\.requirements\\[0\\]\\.values: `,
      ),
    );
    expect(server.served).toEqual([]);
  }, 60_000);

  it('is refused by the signature check with the wrong secret, and says where the endpoint is missing', async () => {
    const forged = await pools(['get'], { ...CALLER, secretAccessKey: 'not-the-secret' });
    expect(forged.status).toBe(2);
    expect(forged.stderr).toBe('nodesmith: Forbidden (HTTP 403)\n');
    expect(server.served).toEqual([]);
    const nowhere = await runCliInProcess(['pools', 'get'], { env: { PATH: process.env.PATH } });
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toBe(
      "nodesmith: no API endpoint: give --endpoint or set NODESMITH_API_URL to the stack's ApiUrl output\n",
    );
  }, 60_000);
});

/** A static pool `fixed` of `replicas` nodes, beside the shop's class. */
function staticPoolYaml(replicas: number): string {
  const pool = aNodePoolDocument({
    name: 'fixed',
    requirements: { 'karpenter.sh/capacity-type': ['on-demand'] },
  });
  return `${SHOP_NODE_CLASS}---\n${yamlOf({ ...pool, spec: { ...pool.spec, replicas } })}`;
}

describe('nodesmith pools scale', () => {
  it("sets a static pool's replicas, as a line, YAML or the Scale in JSON", async () => {
    // Prepare
    await pools(['apply', '-f', file(staticPoolYaml(2))]);

    // Act
    const scaled = await pools(['scale', 'fixed', '--replicas', '5']);
    const again = await pools(['scale', 'fixed', '--replicas', '5']);
    const json = await pools(['scale', 'fixed', '--replicas', '0', '-o', 'json']);

    // Assess
    expect(scaled).toMatchObject({ status: 0, stderr: '' });
    expect(scaled.stdout).toBe('nodepool.karpenter.sh/fixed scaled to 5 replicas (0 nodes now)\n');
    expect(again.stdout).toBe(
      'nodepool.karpenter.sh/fixed unchanged at 5 replicas (0 nodes now)\n',
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      result: 'configured',
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'fixed', resourceVersion: '3' },
      spec: { replicas: 0 },
      status: { replicas: 0 },
    });
    expect((await state.nodePools.get('fixed'))?.document.spec.replicas).toBe(0);
  }, 60_000);

  it("refuses a dynamic pool with Karpenter's message, and a bad count before sending it", async () => {
    // Prepare
    await pools(['apply', '-f', file(POOLS_YAML)]);
    const sent = server.served.length;

    // Act
    const dynamic = await pools(['scale', 'web', '--replicas', '3']);
    const negative = await pools(['scale', 'web', '--replicas', '-1']);
    const sentAfter = server.served.length;
    const missing = await pools(['scale', 'gone', '--replicas', '1']);

    // Assess
    expect(dynamic.status).toBe(2);
    expect(dynamic.stderr).toBe(
      'nodesmith: spec.replicas: Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes (HTTP 422)\n',
    );
    expect(negative.status).toBe(2);
    expect(negative.stderr).toMatch(/--replicas must be a whole number/);
    expect(sentAfter).toBe(sent + 1);
    expect(missing.stderr).toBe('nodesmith: NodePool gone does not exist (HTTP 404)\n');
    expect((await state.nodePools.get('web'))?.document.spec.replicas).toBeUndefined();
  }, 60_000);
});

describe('nodesmith pools with NodeOverlays', () => {
  it('applies overlays after the classes and before the pools, and again as unchanged', async () => {
    // Prepare
    const args = ['apply', '-f', file(POOLS_YAML), '-f', GPU_SLICES];

    // Act
    const first = await pools(args);
    const again = await pools(args);

    // Assess
    expect(first.stderr).toBe('');
    expect(first.stdout.split('\n')).toEqual([
      'ec2nodeclass.karpenter.k8s.aws/default created',
      ...SLICES.map((name) => `nodeoverlay.karpenter.sh/${name} created`),
      'nodepool.karpenter.sh/web created',
      '',
    ]);
    expect(again.stdout).toContain('nodeoverlay.karpenter.sh/gpu-slices-8gpu unchanged\n');
    const stored = await state.nodeOverlays.list();
    expect(stored.map((s) => [s.document.metadata.name, s.document.spec.capacity])).toEqual([
      ['gpu-slices-1gpu', { 'nvidia.com/gpu': 4 }],
      ['gpu-slices-2gpu', { 'nvidia.com/gpu': 8 }],
      ['gpu-slices-4gpu', { 'nvidia.com/gpu': 16 }],
      ['gpu-slices-8gpu', { 'nvidia.com/gpu': 32 }],
    ]);
  }, 60_000);

  it('gets overlays as a table, and one by name as YAML or JSON', async () => {
    // Prepare
    await pools(['apply', '-f', GPU_SLICES, '-f', file(SPOT_DISCOUNT)]);

    // Act
    const table = await pools(['get', 'nodeoverlays']);
    const yaml = await pools(['get', 'overlay', 'gpu-slices-1gpu', '-o', 'yaml']);
    const json = await pools(['get', 'overlays', 'spot-discount', '-o', 'json']);

    // Assess
    expect(table.stdout.split('\n').map((line) => line.trim().split(/\s+/))).toEqual([
      ['NAME', 'WEIGHT', 'PRICE', 'CAPACITY', 'VERSION'],
      ['gpu-slices-1gpu', '10', '-', 'nvidia.com/gpu=4', '1'],
      ['gpu-slices-2gpu', '10', '-', 'nvidia.com/gpu=8', '1'],
      ['gpu-slices-4gpu', '10', '-', 'nvidia.com/gpu=16', '1'],
      ['gpu-slices-8gpu', '10', '-', 'nvidia.com/gpu=32', '1'],
      ['spot-discount', '-', '-10%', '-', '1'],
      [''],
    ]);
    expect(yaml.stdout).toContain('kind: NodeOverlay\n');
    expect(yaml.stdout).toContain("resourceVersion: '1'");
    expect(JSON.parse(json.stdout)).toMatchObject({
      apiVersion: 'karpenter.sh/v1alpha1',
      spec: { priceAdjustment: '-10%' },
    });
  }, 60_000);

  it('deletes an overlay, and says when there is none to delete', async () => {
    // Prepare
    await pools(['apply', '-f', GPU_SLICES]);

    // Act
    const deleted = await pools(['delete', 'nodeoverlay', 'gpu-slices-1gpu']);
    const missing = await pools(['delete', 'nodeoverlay', 'gpu-slices-1gpu']);

    // Assess
    expect(deleted.stdout).toBe('nodeoverlay.karpenter.sh/gpu-slices-1gpu deleted\n');
    expect((await state.nodeOverlays.list()).map((s) => s.document.metadata.name)).toEqual(
      SLICES.slice(1),
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      'nodesmith: NodeOverlay gpu-slices-1gpu does not exist (HTTP 404)\n',
    );
  }, 60_000);

  it.each([
    [
      'a kind it does not serve',
      () => ['get', 'nodegroups'],
      '"nodegroups" is not nodepools, nodeclasses or nodeoverlays',
    ],
    [
      'a document of another kind',
      () => ['apply', '-f', file(CLUSTER_LIMITS)],
      'nodesmith.io/v1 ClusterLimits is not a NodePool, EC2NodeClass or NodeOverlay',
    ],
  ])(
    'refuses %s, naming the kinds it takes, before sending anything',
    async (_what, args, says) => {
      // Act
      const result = await pools(args());

      // Assess
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(says);
      expect(server.served).toEqual([]);
    },
    60_000,
  );
});

describe('nodesmith limits', () => {
  it('sets limits, changing only those named, and shows them', async () => {
    const first = await nodesmith(['limits', 'set', '--nodes', '400', '--hourly-cost', '900']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('clusterlimits.nodesmith.io/cluster created\n');
    const second = await nodesmith(['limits', 'set', '--cpu', '2000']);
    expect(second.stdout).toBe('clusterlimits.nodesmith.io/cluster configured\n');
    expect((await state.clusterLimits.get('cluster'))?.document.spec.limits).toEqual({
      nodes: '400',
      'nodesmith.io/hourly-cost': '900',
      cpu: '2000',
    });
    const shown = await nodesmith(['limits', 'get']);
    expect(shown.stdout.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['LIMIT', 'VALUE', 'SET', 'BY'],
      ['nodes', '400', 'api'],
      ['nodesmith.io/hourly-cost', '900', 'api'],
      ['cpu', '2000', 'api'],
      [''],
    ]);
    const removed = await nodesmith(['limits', 'set', '--remove', 'cpu']);
    expect(removed.status).toBe(0);
    const json = await nodesmith(['limits', 'get', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      metadata: { resourceVersion: '3' },
      spec: { limits: { nodes: '400', 'nodesmith.io/hourly-cost': '900' } },
    });
  });

  it("says so when none are set, and refuses a bad value with the API's reason", async () => {
    expect((await nodesmith(['limits', 'get'])).stdout).toBe('no cluster limits are set\n');
    const bad = await nodesmith(['limits', 'set', '--hourly-cost', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('spec.limits[nodesmith.io/hourly-cost]');
    expect(bad.stderr).toContain('(HTTP 400)');
    expect(await state.clusterLimits.get('cluster')).toBeUndefined();
    const nothing = await nodesmith(['limits', 'set']);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain('name a limit to set');
  });
});
