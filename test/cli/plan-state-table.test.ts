/**
 * `nodesmith plan --state-table`: NodePools, EC2NodeClasses, NodeOverlays and limits from
 * Nodesmith's DynamoDB state (here DynamoDB Local, reached through AWS_ENDPOINT_URL_DYNAMODB, the
 * SDK's own setting), pods from files or from a live cluster (the fake API server), and one line
 * with exit status 2 when the table cannot be read. The command runs in the test's process with
 * an environment of its own; the case about what it loads runs the built binary.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeDynamoDbStateStore } from '../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables } from '../../functions/adapters/dynamodb/tables.ts';
import { type ClusterLimits, clusterLimits } from '../../functions/domain/limits/cluster-limits.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import type { NodeOverlay } from '../../functions/domain/overlays/node-overlay.ts';
import { parseEC2NodeClass } from '../../functions/manifests/karpenter/node-class.ts';
import { parseNodeOverlay } from '../../functions/manifests/karpenter/node-overlay.ts';
import { parseNodePool } from '../../functions/manifests/karpenter/node-pool.ts';
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { type FakeApiServer, startFakeApiServer } from '../../simulator/api-server/index.ts';
import { type CliResult, runCli, writeKubeconfig } from '../support/cli.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { makeLocalClient, useDynamoDbLocal } from '../support/dynamodb-local.ts';
import { aNodePoolDocument, yamlOf } from '../support/karpenter-documents.ts';

const endpoint = useDynamoDbLocal();
let client: DynamoDBClient | undefined;
let tableSets = 0;

afterAll(() => client?.destroy());

const STORED_POOL = yamlOf(
  aNodePoolDocument({
    name: 'stored',
    nodeClass: 'stored-class',
    requirements: {
      'node.kubernetes.io/instance-type': ['m5.xlarge'],
      'karpenter.sh/capacity-type': ['on-demand'],
    },
  }),
);

// Its one subnet's zone shows in the plan only if the class really came from the table.
const STORED_CLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: stored-class
spec:
  role: KarpenterNodeRole-demo
  amiSelectorTerms:
  - alias: al2023@latest
  subnetSelectorTerms:
  - tags:
      karpenter.sh/discovery: demo
  securityGroupSelectorTerms:
  - tags:
      karpenter.sh/discovery: demo
status:
  subnets:
  - id: subnet-0a1b2c3d4e5f60718
    zone: us-east-1d
    zoneID: use1-az2
`;

const FILE_POOL = STORED_POOL.replace('name: stored\n', 'name: from-file\n');

// One licence per node of the stored pool, at a negotiated price.
const STORED_OVERLAY = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: licensed
spec:
  requirements:
  - key: karpenter.sh/nodepool
    operator: In
    values:
    - stored
  price: "0.05"
  capacity:
    example.com/licence: "1"
`;

function podYaml(name: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: shop
spec:
  containers:
  - name: app
    image: nginx
    resources:
      requests:
        cpu: 500m
        memory: 512Mi
`;
}

function pendingPod(name: string) {
  return {
    metadata: { name, namespace: 'shop' },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          resources: { requests: { cpu: '500m', memory: '512Mi' } },
        },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

interface Stored {
  readonly pools?: readonly NodePool[];
  readonly overlays?: readonly NodeOverlay[];
  readonly limits?: ClusterLimits;
}

/** A fresh state table holding the stored pool and class (or the pools given), named. */
async function stateTable(stored: Stored = {}): Promise<string> {
  client ??= makeLocalClient(endpoint());
  tableSets += 1;
  const names = {
    nodeClaims: `plan-claims-${process.pid}-${tableSets}`,
    state: `plan-state-${process.pid}-${tableSets}`,
  };
  await createTables(client, names);
  const store = makeDynamoDbStateStore({
    client: DynamoDBDocumentClient.from(client),
    tables: names,
  });
  for (const pool of stored.pools ?? [parseNodePool(parse(STORED_POOL))]) {
    await store.nodePools.create(pool, `hash-${pool.metadata.name}`);
  }
  await store.nodeClasses.create(parseEC2NodeClass(parse(STORED_CLASS)), 'hash-class');
  for (const overlay of stored.overlays ?? []) {
    await store.nodeOverlays.create(overlay, `hash-${overlay.metadata.name}`);
  }
  if (stored.limits !== undefined) await store.clusterLimits.create(stored.limits, 'hash-limits');
  return names.state;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'nodesmith-state-table-'));
}

function writeFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * The command's environment: DynamoDB Local and the credentials its data is kept under (see
 * makeLocalClient), and nothing of this machine's AWS setup (no profile files, no instance
 * metadata), so each case sees exactly the credentials it names.
 */
function awsEnv(dir: string, overrides: Record<string, string | undefined> = {}) {
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AWS_'))),
    AWS_ENDPOINT_URL_DYNAMODB: endpoint(),
    AWS_ACCESS_KEY_ID: 'nodesmith',
    AWS_SECRET_ACCESS_KEY: 'nodesmith',
    AWS_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(dir, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

function expectStoredPoolPlan(result: CliResult, pods: readonly string[]): void {
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const plan = JSON.parse(result.stdout) as PlanReport;
  expect(plan.unschedulable).toEqual([]);
  expect(plan.nodeClaims).toHaveLength(1);
  expect(plan.nodeClaims[0]).toMatchObject({
    nodePool: 'stored',
    instanceType: 'm5.xlarge',
    zone: 'us-east-1d',
  });
  expect([...(plan.nodeClaims[0]?.pods ?? [])].sort()).toEqual(pods);
}

function expectOneLineError(result: CliResult, ...mentions: string[]): void {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const mention of mentions) expect(lines[0]).toContain(mention);
}

describe('plan --state-table', () => {
  let server: FakeApiServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('plans the pods of a file with the NodePool and EC2NodeClass stored in the table', async () => {
    // Prepare
    const table = await stateTable();
    const dir = tempDir();
    const pods = writeFile(dir, 'pods.yaml', `${podYaml('web-1')}---\n${podYaml('web-2')}`);

    // Act
    const result = await runCliInProcess(
      ['plan', '-f', pods, '--state-table', table, '-o', 'json'],
      {
        env: awsEnv(dir),
      },
    );

    // Assess
    expectStoredPoolPlan(result, ['shop/web-1', 'shop/web-2']);
  });

  it('applies the cluster limits stored in the table', async () => {
    // Prepare
    const table = await stateTable({ limits: clusterLimits({ nodes: '0' }) });
    const dir = tempDir();
    const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

    // Act
    const result = await runCliInProcess(
      ['plan', '-f', pods, '--state-table', table, '-o', 'json'],
      {
        env: awsEnv(dir),
      },
    );

    // Assess
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      nodeClaims: [],
      unschedulable: [
        { pod: 'shop/web-1', reason: 'The cluster would exceed its nodes limit: 0 of 0 used' },
      ],
    });
  });

  it('applies the NodeOverlays stored in the table', async () => {
    // Prepare: each pod needs a licence, which only the overlay gives the stored pool's nodes.
    const table = await stateTable({ overlays: [parseNodeOverlay(parse(STORED_OVERLAY))] });
    const dir = tempDir();
    const licensed = (name: string) =>
      podYaml(name).replace('memory: 512Mi\n', 'memory: 512Mi\n        example.com/licence: "1"\n');
    const pods = writeFile(dir, 'pods.yaml', `${licensed('web-1')}---\n${licensed('web-2')}`);

    // Act
    const result = await runCliInProcess(
      ['plan', '-f', pods, '--state-table', table, '-o', 'json'],
      {
        env: awsEnv(dir),
      },
    );

    // Assess: a node each, at the overlay's price
    expect(result.stderr).toBe('');
    const plan = JSON.parse(result.stdout) as PlanReport;
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.map((c) => [c.instanceType, c.pricePerHour, c.pods])).toEqual([
      ['m5.xlarge', 0.05, ['shop/web-1']],
      ['m5.xlarge', 0.05, ['shop/web-2']],
    ]);
  });

  it('plans the pending pods of a live cluster with the stored NodePool, only reading', async () => {
    // Prepare
    const table = await stateTable();
    server = await startFakeApiServer();
    server.store.create('namespaces', { metadata: { name: 'shop' } });
    server.store.create('pods', pendingPod('web-1'));
    const dir = tempDir();

    // Act
    const result = await runCliInProcess(
      [
        'plan',
        '--kubeconfig',
        writeKubeconfig(server.url, dir),
        '--state-table',
        table,
        '-o',
        'json',
      ],
      { env: awsEnv(dir) },
    );

    // Assess
    expectStoredPoolPlan(result, ['shop/web-1']);
    expect(server.requests.entries.map((r) => r.method).filter((m) => m !== 'GET')).toEqual([]);
  });

  it.each([
    ['NodePools', FILE_POOL, 'NodePool from-file'],
    ['NodeOverlays', STORED_OVERLAY, 'NodeOverlay licensed'],
  ])('refuses %s in -f files as well, rather than mixing them in', async (_, document, named) => {
    // Prepare
    const table = await stateTable();
    const dir = tempDir();
    const file = writeFile(dir, 'cluster.yaml', `${document}---\n${podYaml('web-1')}`);

    // Act
    const result = await runCliInProcess(['plan', '-f', file, '--state-table', table], {
      env: awsEnv(dir),
    });

    // Assess
    expectOneLineError(result, named, `--state-table ${table}`);
  });

  it.each<[string, Stored, string, string]>([
    [
      'a pool',
      { pools: [parse(STORED_POOL.replace('operator: In\n', 'operator: Within\n')) as NodePool] },
      'NodePool stored',
      'requirements[0].operator',
    ],
    [
      'an overlay',
      { overlays: [parse(STORED_OVERLAY.replace('example.com/licence', 'cpu')) as NodeOverlay] },
      'NodeOverlay licensed',
      'spec.capacity.cpu',
    ],
  ])(
    'validates stored documents, naming the table, %s and the field',
    async (_, stored, kindAndName, field) => {
      // Prepare: a document some other writer stored without validating it
      const table = await stateTable(stored);
      const dir = tempDir();
      const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

      // Act
      const result = await runCliInProcess(['plan', '-f', pods, '--state-table', table], {
        env: awsEnv(dir),
      });

      // Assess
      expectOneLineError(result, table, kindAndName, field);
    },
  );

  it('says so when the table holds no NodePools', async () => {
    // Prepare
    const table = await stateTable({ pools: [] });
    const dir = tempDir();
    const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

    // Act
    const result = await runCliInProcess(['plan', '-f', pods, '--state-table', table], {
      env: awsEnv(dir),
    });

    // Assess
    expectOneLineError(result, table, 'no NodePools');
  });

  it.each([
    ['an unknown table', 'no-such-table', {}, ['no such table', '--state-table', '--region']],
    [
      'no credentials',
      undefined,
      { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined },
      ['no AWS credentials', 'AWS_PROFILE'],
    ],
    [
      'refused credentials',
      undefined,
      { AWS_ACCESS_KEY_ID: 'not-a-valid-key!' },
      ['refused the credentials', 'UnrecognizedClientException'],
    ],
    [
      'an unreachable endpoint',
      undefined,
      { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1' },
      ['cannot reach DynamoDB', 'ECONNREFUSED'],
    ],
  ] as const)('exits 2 with one line naming the table for %s', async (_, name, overrides, says) => {
    // Prepare
    const table = name ?? (await stateTable());
    const dir = tempDir();
    const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

    // Act
    const result = await runCliInProcess(['plan', '-f', pods, '--state-table', table], {
      env: awsEnv(dir, overrides),
    });

    // Assess
    expectOneLineError(result, `state table ${table} in us-east-1`, ...says);
  });

  it('rejects a name DynamoDB would not accept before calling it', async () => {
    // Prepare
    const dir = tempDir();
    const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

    // Act
    const result = await runCliInProcess(['plan', '-f', pods, '--state-table', 'x'], {
      env: awsEnv(dir),
    });

    // Assess
    expectOneLineError(result, '--state-table', '"x"');
  });

  it('never loads the AWS SDK when the NodePools come from files', async () => {
    // Prepare: hooks that make every AWS SDK import fail, from node_modules or from the chunks
    // the CLI's bundle carries it in (the bundler names each package's files in a comment)
    const dir = tempDir();
    const hook =
      'export async function resolve(specifier, context, next) {' +
      " if (specifier.startsWith('@aws-sdk/')) throw new Error('loaded ' + specifier);" +
      ' return next(specifier, context); }' +
      'export async function load(url, context, next) {' +
      ' const loaded = await next(url, context);' +
      " if (String(loaded.source ?? '').includes('node_modules/@aws-sdk/'))" +
      " throw new Error('loaded @aws-sdk/ in ' + url);" +
      ' return loaded; }';
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const nodeArgs = ['--import', `data:text/javascript,${encodeURIComponent(register)}`];
    const file = writeFile(dir, 'cluster.yaml', `${FILE_POOL}---\n${podYaml('web-1')}`);
    const table = await stateTable();
    const pods = writeFile(dir, 'pods.yaml', podYaml('web-1'));

    // Act
    const fromFiles = await runCli(['plan', '-f', file], { env: awsEnv(dir), nodeArgs });
    const fromTable = await runCli(['plan', '-f', pods, '--state-table', table], {
      env: awsEnv(dir),
      nodeArgs,
    });

    // Assess: the hook works, and plan -f did not trip it
    expect(fromFiles.stderr).toBe('');
    expect(fromFiles.status).toBe(0);
    expect(fromTable.stderr).toContain('loaded @aws-sdk/');
  });
});
