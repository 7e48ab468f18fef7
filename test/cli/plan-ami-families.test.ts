/**
 * `nodesmith plan`, run in the test's process, plans only nodes the controller can launch: an
 * Amazon Linux 2 class is refused at the field that names it, with the alias that replaces it,
 * and Windows nodes are priced as Windows, above the Linux price of the same type.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { AL2_UNSUPPORTED } from '../../functions/domain/unsupported-ami-family.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { SHOP_NODE_CLASS, SHOP_NODE_POOL } from '../support/karpenter-documents.ts';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
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
    ['the al2@latest alias', 'alias: al2@latest', 'spec.amiSelectorTerms[0].alias'],
    ['amiFamily AL2', 'alias: al2023@latest\n  amiFamily: AL2', 'spec.amiFamily'],
  ])('refuses an EC2NodeClass with %s, exit status 2', async (_, replacement, field) => {
    // Prepare
    const nodeClass = SHOP_NODE_CLASS.replace('alias: al2023@latest', replacement);
    const file = write('al2.yaml', [SHOP_NODE_POOL, nodeClass, POD].join('---\n'));

    // Act
    const result = await runCliInProcess(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^nodesmith: ${file}:\\d+: ${field.replace(/[[\].]/g, '\\$&')}: `),
    );
    expect(result.stderr.trim().endsWith(AL2_UNSUPPORTED)).toBe(true);
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
