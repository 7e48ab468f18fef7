/**
 * `nodesmith plan`, run in the test's process, on public manifests where a claim could grow into
 * a big machine: it grows only while the grown claim stays cost-efficient counting every resource
 * its pods ask for — GPUs and pod slots as well as CPU and memory (docs/scheduling.md).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { writePendingPods } from '../support/workload-pods.ts';

const PUBLIC = fileURLToPath(new URL('../fixtures/public/', import.meta.url));
const DATA_ON_EKS = `${PUBLIC}data-on-eks/infra/terraform/manifests/karpenter/`;
const GENERAL_PURPOSE = `${PUBLIC}karpenter-provider-aws/examples/v1/general-purpose.yaml`;
const OTEL_DEMO = `${PUBLIC}opentelemetry-demo/kubernetes/opentelemetry-demo.yaml`;

async function plan(file: string): Promise<PlanReport> {
  const result = await runCliInProcess(['plan', '-f', file, '-o', 'json']);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PlanReport;
}

function hourlyCost(planned: PlanReport): number {
  return planned.nodeClaims.reduce((total, claim) => total + claim.pricePerHour, 0);
}

describe('nodesmith plan: claims grow only while every resource stays cost-efficient', () => {
  it('plans one 1-GPU node per vLLM pod of the data-on-eks GPU NodePool, not a 4-GPU g6.12xlarge', async () => {
    // Prepare: kubernetes/examples' vLLM Deployment at three replicas, each pod asking one
    // nvidia.com/gpu; one g6.12xlarge ($4.6016/h) holds all three, three g6.xlarge cost less.
    const file = writePendingPods(
      [
        `${DATA_ON_EKS}nodepool-gpu-g6.yaml`,
        `${DATA_ON_EKS}ec2nodeclass.yaml`,
        `${PUBLIC}examples/AI/vllm-deployment/vllm-deployment.yaml`,
      ],
      { copies: 3 },
    );

    // Act
    const planned = await plan(file);

    // Assess
    expect(planned.unschedulable).toEqual([]);
    expect(planned.nodeClaims.map((c) => [c.instanceType, c.pods.length])).toEqual([
      ['g6.xlarge', 1],
      ['g6.xlarge', 1],
      ['g6.xlarge', 1],
    ]);
    expect(hourlyCost(planned)).toBeLessThan(4.6016);
  });

  it('does not put 480 small OpenTelemetry demo pods on one r8i-flex.8xlarge', async () => {
    // Prepare: the demo's 24 Deployments, 20 copies of each, on Karpenter's general-purpose
    // NodePool. Their pods ask little CPU and memory, so pod slots bound what a node holds, and
    // an r8i-flex.8xlarge ($2.1115/h, 492 slots) costs more per slot than smaller types.
    // The opensearch StatefulSet is left out: its preferred anti-affinity gives every copy a
    // node of its own, which hides how big one claim grows.
    const file = writePendingPods([GENERAL_PURPOSE, OTEL_DEMO], {
      copies: 20,
      kinds: ['Deployment'],
    });

    // Act
    const planned = await plan(file);

    // Assess
    const placed = planned.nodeClaims.flatMap((c) => c.pods);
    expect(placed).toHaveLength(480);
    expect(planned.unschedulable).toEqual([]);
    expect(Math.max(...planned.nodeClaims.map((c) => c.pods.length))).toBeLessThan(480);
    expect(hourlyCost(planned)).toBeLessThan(2.1115);
  });
});
