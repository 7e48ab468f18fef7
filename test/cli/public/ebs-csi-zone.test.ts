/**
 * `nodesmith plan` on the EBS CSI driver's own examples from when they pinned volumes with the
 * driver's zone key, `topology.ebs.csi.aws.com/zone`: Karpenter's AWS provider reads it as
 * `topology.kubernetes.io/zone`, so the pod gets a node in the volume's zone.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../../functions/use-cases/plan/plan-report.ts';
import { runCliInProcess } from '../../support/cli-in-process.ts';

const PUBLIC = '../../fixtures/public';
const NODE_POOL = fixture('karpenter-provider-aws/examples/v1/general-purpose.yaml');
const EBS_EXAMPLES = 'aws-ebs-csi-driver/examples/kubernetes';

function fixture(path: string): string {
  return fileURLToPath(new URL(`${PUBLIC}/${path}`, import.meta.url));
}

describe('the EBS CSI zone key in public manifests', () => {
  it.each([
    ['a StorageClass allowedTopologies', 'storageclass', ['storageclass', 'claim', 'pod']],
    ['a PersistentVolume node affinity', 'static-provisioning', ['pv', 'claim', 'pod']],
  ])('plans a node in the zone %s allows', async (_source, example, files) => {
    // Prepare
    const paths = files.map((file) => fixture(`${EBS_EXAMPLES}/${example}/manifests/${file}.yaml`));
    const args = ['-f', NODE_POOL, ...paths.flatMap((path) => ['-f', path])];

    // Act
    const run = await runCliInProcess(['plan', ...args, '--region', 'us-east-2', '-o', 'json']);

    // Assess
    expect(run.status).toBe(0);
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(plan.unschedulable).toEqual([]);
    expect(plan.nodeClaims.map((claim) => [claim.zone, claim.pods])).toEqual([
      ['us-east-2c', ['default/app']],
    ]);
  });
});
