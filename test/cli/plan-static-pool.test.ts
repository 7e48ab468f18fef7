/**
 * `nodesmith plan`, run in the test's process, on a dump with a static NodePool (core:
 * provisioning/provisioner.go leaves static pools out of scheduling): pending pods are never
 * planned onto a new node of it, though they may go to its nodes that already run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { aNodePoolDocument, SHOP_NODE_CLASS, yamlOf } from '../support/karpenter-documents.ts';

const requirements = { 'karpenter.sh/capacity-type': ['on-demand'] };
const FIXED = yamlOf({
  ...aNodePoolDocument({ name: 'fixed', requirements }),
  spec: { ...aNodePoolDocument({ name: 'fixed', requirements }).spec, replicas: 2 },
});
const GENERAL = yamlOf(aNodePoolDocument({ name: 'general', requirements }));

const FIXED_NODE = `apiVersion: v1
kind: Node
metadata:
  name: fixed-node
  labels:
    karpenter.sh/nodepool: fixed
    kubernetes.io/arch: amd64
    kubernetes.io/os: linux
spec:
  providerID: aws:///us-east-1a/i-0123456789abcdef0
status:
  capacity: { cpu: "2", memory: 8Gi, pods: "110" }
  allocatable: { cpu: "2", memory: 8Gi, pods: "110" }
  conditions: [{ type: Ready, status: "True" }]
`;

const pods = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `apiVersion: v1
kind: Pod
metadata:
  name: web-${i}
spec:
  containers:
    - name: web
      image: nginx
      resources: { requests: { cpu: 900m, memory: 1Gi } }
`,
  ).join('---\n');

function dump(...documents: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-static-')), 'cluster.yaml');
  writeFileSync(file, documents.join('---\n'));
  return file;
}

async function plan(file: string) {
  const result = await runCliInProcess(['plan', '-f', file, '-o', 'json']);
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

describe('nodesmith plan with a static NodePool', () => {
  it('places pods on its running node, and launches for the rest only from a dynamic pool', async () => {
    // Prepare
    const file = dump(SHOP_NODE_CLASS, FIXED, GENERAL, FIXED_NODE, pods(4));

    // Act
    const report = await plan(file);

    // Assess
    expect(report.existingNodes).toEqual([
      { name: 'fixed-node', pods: ['default/web-0', 'default/web-1'] },
    ]);
    expect(report.nodeClaims.map((c: { nodePool: string }) => c.nodePool)).toEqual(
      Array(report.nodeClaims.length).fill('general'),
    );
    expect(report.nodeClaims.flatMap((c: { pods: string[] }) => c.pods).sort()).toEqual([
      'default/web-2',
      'default/web-3',
    ]);
    expect(report.unschedulable).toEqual([]);
  });

  it('leaves pods unschedulable with its reason when it is the only pool', async () => {
    // Prepare
    const file = dump(SHOP_NODE_CLASS, FIXED, pods(1));

    // Act
    const report = await plan(file);

    // Assess
    expect(report.nodeClaims).toEqual([]);
    expect(report.unschedulable).toEqual([
      {
        pod: 'default/web-0',
        reason:
          'nodepool "fixed": NodePool is static (replicas set): it keeps its own node count and launches none for pods',
      },
    ]);
  });
});
