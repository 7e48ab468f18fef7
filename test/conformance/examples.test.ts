/**
 * The example dumps shipped in examples/ plan without error and keep the promises their headers
 * make: every pending pod accounted for, volumes, taints, spreads and limits honoured.
 */
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { claimOf, podsPerLabel, reportedPods, runCliOnce, sortedCounts, ZONE } from './plan-cli.ts';

interface ExamplePlan {
  readonly plan: PlanReport;
  readonly stderr: string;
  readonly status: number | null;
}

/** Plans an example (once per test file: the cases only read the result). */
async function planExample(name: string): Promise<ExamplePlan> {
  const run = await runCliOnce(['plan', '-f', `examples/${name}.yaml`, '-o', 'json']);
  return { plan: JSON.parse(run.stdout) as PlanReport, stderr: run.stderr, status: run.status };
}

function podsOf(plan: PlanReport, prefix: string): string[] {
  return reportedPods(plan).filter((p) => p.startsWith(prefix));
}

describe.concurrent('examples/web-shop.yaml', () => {
  it('plans all twelve pending pods without error', async () => {
    // Prepare: an EKS cluster with Karpenter-style pools, four nodes and twelve pending pods
    const example = 'web-shop';

    // Act
    const { plan, stderr, status } = await planExample(example);

    // Assess
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(new Set(reportedPods(plan)).size).toBe(12);
    expect(plan.summary.pendingPods).toBe(12);
  });

  it('launches the StatefulSet pod in the zone of its bound volume', async () => {
    // Prepare: orders-db-2's PersistentVolume is pinned to us-east-1b
    const example = 'web-shop';

    // Act
    const { plan } = await planExample(example);

    // Assess
    expect(claimOf(plan, 'shop/orders-db-2')?.zone).toBe('us-east-1b');
  });

  it('puts the inference pod on a tainted GPU node and the export nowhere', async () => {
    // Prepare: the gpu NodePool allows g5/g6/g6e; the export asks for 4Ti of memory
    const example = 'web-shop';

    // Act
    const { plan } = await planExample(example);

    // Assess
    const gpu = claimOf(plan, 'ml/llm-inference-6c8d9f7b5c-t4m8x');
    expect(gpu?.nodePool).toBe('gpu');
    expect(gpu?.instanceType).toMatch(/^g(5|6|6e)\./);
    expect(gpu?.taints).toEqual([{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual([
      'reporting/nightly-export-29299320-6xk2d',
    ]);
    expect(plan.unschedulable[0]?.reason).toMatch(/memory/);
  });

  it('keeps the checkout replicas on separate nodes', async () => {
    // Prepare: three checkout replicas with required hostname anti-affinity
    const example = 'web-shop';

    // Act
    const { plan } = await planExample(example);

    // Assess
    const checkout = podsOf(plan, 'shop/checkout-');
    const hosts = checkout.map(
      (p) => claimOf(plan, p)?.name ?? plan.existingNodes.find((n) => n.pods.includes(p))?.name,
    );
    expect(checkout).toHaveLength(3);
    expect(new Set(hosts).size).toBe(3);
    expect(hosts).not.toContain(undefined);
  });

  it('spreads the new storefront replicas to two per zone', async () => {
    // Prepare: one storefront runs in each zone, six more are pending (zonal spread, maxSkew 1)
    const example = 'web-shop';
    const zoneOfNode: Record<string, string> = {
      'ip-10-0-17-203.ec2.internal': 'us-east-1a',
      'ip-10-0-41-88.ec2.internal': 'us-east-1b',
      'ip-10-0-77-142.ec2.internal': 'us-east-1c',
    };

    // Act
    const { plan } = await planExample(example);

    // Assess
    const zones = podsOf(plan, 'shop/storefront-').map(
      (p) =>
        claimOf(plan, p)?.zone ??
        zoneOfNode[plan.existingNodes.find((n) => n.pods.includes(p))?.name ?? ''],
    );
    expect(zones.sort()).toEqual([
      'us-east-1a',
      'us-east-1a',
      'us-east-1b',
      'us-east-1b',
      'us-east-1c',
      'us-east-1c',
    ]);
  });
});

describe.concurrent('examples/scale-from-zero.yaml', () => {
  it('plans nodes for all sixty pods of a cluster without nodes', async () => {
    // Prepare: no nodes at all, one NodePool, sixty pending pods
    const example = 'scale-from-zero';

    // Act
    const { plan, stderr, status } = await planExample(example);

    // Assess
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(plan.existingNodes).toEqual([]);
    expect(plan.unschedulable).toEqual([]);
    expect(new Set(reportedPods(plan)).size).toBe(60);
    expect(plan.summary.newNodeClaims).toBeGreaterThan(0);
  });

  it('spreads the frontend and api replicas evenly over the three zones', async () => {
    // Prepare: frontend (12) and api (20) spread over zones with maxSkew 1
    const example = 'scale-from-zero';

    // Act
    const { plan } = await planExample(example);

    // Assess
    expect(sortedCounts(podsPerLabel(plan, ZONE, 'travel/frontend-'))).toEqual([4, 4, 4]);
    expect(sortedCounts(podsPerLabel(plan, ZONE, 'travel/api-'))).toEqual([6, 7, 7]);
  });

  it('keeps the session-cache replicas on separate nodes', async () => {
    // Prepare: three StatefulSet pods with required hostname anti-affinity
    const example = 'scale-from-zero';

    // Act
    const { plan } = await planExample(example);

    // Assess
    const claims = [
      'travel/session-cache-0',
      'travel/session-cache-1',
      'travel/session-cache-2',
    ].map((p) => claimOf(plan, p)?.name);
    expect(new Set(claims).size).toBe(3);
    expect(claims).not.toContain(undefined);
  });
});

describe.concurrent('examples/batch-burst.yaml', () => {
  it('accounts for all three hundred job pods', async () => {
    // Prepare: an Indexed Job of 300 pods for the spot-only batch NodePool
    const example = 'batch-burst';

    // Act
    const { plan, stderr, status } = await planExample(example);

    // Assess
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(new Set(reportedPods(plan)).size).toBe(300);
    expect(plan.summary.pendingPods).toBe(300);
  });

  it('launches only tainted spot batch nodes with at least five instance families', async () => {
    // Prepare: the batch NodePool is spot only, tainted, with minValues 5 on instance-family
    const example = 'batch-burst';

    // Act
    const { plan } = await planExample(example);

    // Assess
    expect(plan.nodeClaims.length).toBeGreaterThan(0);
    for (const claim of plan.nodeClaims) {
      expect(claim.nodePool).toBe('batch');
      expect(claim.capacityType).toBe('spot');
      expect(claim.labels.workload).toBe('batch');
      expect(claim.taints).toEqual([{ key: 'workload', value: 'batch', effect: 'NoSchedule' }]);
      const families = new Set(claim.instanceTypeOptions.map((t) => t.split('.')[0]));
      expect(families.size).toBeGreaterThanOrEqual(5);
    }
  });

  it('stops at the NodePool cpu limit and says so', async () => {
    // Prepare: 300 one-vCPU pods against a cpu limit of 256
    const example = 'batch-burst';

    // Act
    const { plan } = await planExample(example);

    // Assess
    const cpus = plan.nodeClaims.map((c) => Number(c.labels['karpenter.k8s.aws/instance-cpu']));
    expect(cpus.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(256);
    expect(plan.unschedulable.length).toBeGreaterThan(0);
    for (const u of plan.unschedulable) expect(u.reason).toMatch(/limit/);
  });
});
