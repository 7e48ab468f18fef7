/**
 * `nodesmith plan`, run in the test's process, plans nodes of every AMI family the controller
 * launches: Amazon Linux 2 classes as Karpenter v1 takes them, and Windows nodes priced as
 * Windows, above the Linux price of the same type.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { SHOP_NODE_CLASS, SHOP_NODE_POOL } from '../support/karpenter-documents.ts';

/** Tolerates the shop pool's taint. */
const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  tolerations:
    - { key: example.com/special, operator: Exists, effect: NoSchedule }
  containers:
    - name: web
      image: nginx
      resources: { requests: { cpu: "1" } }
`;

/** Karpenter's own Windows Server 2022 NodePool and EC2NodeClass (`windows2022@latest`). */
const WINDOWS_2022 = 'test/fixtures/public/karpenter-provider-aws/examples/v1/windows-2022.yaml';

const WINDOWS_POD = `apiVersion: v1
kind: Pod
metadata:
  name: iis
spec:
  nodeSelector:
    kubernetes.io/os: windows
  containers:
    - name: iis
      image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
      resources: { requests: { cpu: "1", memory: 2Gi } }
`;

function write(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-ami-')), name);
  writeFileSync(file, text);
  return file;
}

describe('nodesmith plan and the AMI family', () => {
  it.each([
    ['the al2@latest alias', 'alias: al2@latest'],
    ['amiFamily AL2 and AMIs by id', 'id: ami-123\n  amiFamily: AL2'],
  ])('plans an EC2NodeClass with %s on a Linux node, as Karpenter v1 does', async (_, terms) => {
    // Prepare
    const nodeClass = SHOP_NODE_CLASS.replace('alias: al2023@latest', terms);
    const file = write('al2.yaml', [SHOP_NODE_POOL, nodeClass, POD].join('---\n'));

    // Act
    const result = await runCliInProcess(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0].labels).toMatchObject({ 'kubernetes.io/os': 'linux' });
    expect(plan.nodeClaims[0].pods).toEqual(['default/web']);
  });
});

describe('nodesmith plan and Windows', () => {
  it("plans Karpenter's windows2022 example as Windows nodes priced with the license", async () => {
    // Prepare
    const pods = write('pods.yaml', WINDOWS_POD);

    // Act
    const result = await runCliInProcess(['plan', '-f', WINDOWS_2022, '-f', pods, '-o', 'json']);

    // Assess
    expect(result.status).toBe(0);
    const [claim] = JSON.parse(result.stdout).nodeClaims;
    expect(claim.labels).toMatchObject({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    const linux = onDemandPrices('us-east-1').prices.get(claim.instanceType) ?? Infinity;
    const vcpu = Number(claim.labels['karpenter.k8s.aws/instance-cpu']);
    expect(claim.pricePerHour).toBeGreaterThan(linux);
    expect(claim.pricePerHour).toBeCloseTo(linux + vcpu * 0.046, 6);
  });
});
