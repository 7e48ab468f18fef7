/**
 * Limits through the real `nodesmith plan`: a pool's `spec.limits` in its own YAML (nodes,
 * `nodesmith.io/hourly-cost`, with cpu) and the cluster's limits from `--limits FILE`, counted
 * with the nodes a dump already runs at the catalog price of their offering.
 */
import { describe, expect, it } from 'vitest';
import { fixture, planOf, runCli } from './plan-cli.ts';

const limitsFile = (name: string) => fixture(`limits/${name}`);

describe('NodePool limits in plan', () => {
  it('stops an hourly-cost limit at the last node that fits, naming what is used', async () => {
    // Act
    const plan = await planOf('limits-pool-hourly-cost');

    // Assess
    expect(plan.nodeClaims.map((c) => c.instanceType)).toEqual(Array(5).fill('m5.large'));
    expect(plan.summary.pricePerHour).toBeCloseTo(0.48, 6);
    expect(plan.unschedulable).toEqual(
      ['default/solo-5', 'default/solo-6', 'default/solo-7'].map((pod) => ({
        pod,
        reason: 'NodePool web would exceed its hourly cost limit: $0.48 of $0.50 used',
      })),
    );
  });

  it('keeps only the options within a tight cost limit', async () => {
    // Act
    const plan = await planOf('limits-pool-hourly-cost-cheaper-type');

    // Assess
    expect(plan.nodeClaims.map((c) => c.instanceTypeOptions)).toEqual([['m5.large']]);
  });

  it('counts running nodes, spot and on-demand, against a nodes limit', async () => {
    // Act
    const plan = await planOf('limits-pool-nodes-with-existing');

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual(
      Array(2).fill('NodePool web would exceed its nodes limit: 3 of 3 used'),
    );
  });

  it('counts running nodes at their offering price against a cost limit beside a cpu limit', async () => {
    // Act
    const plan = await planOf('limits-pool-cost-with-existing-nodes');

    // Assess: $0.384 + $0.096 run, one more m5.large ($0.096) fits under $0.60
    expect(plan.nodeClaims.map((c) => c.instanceType)).toEqual(['m5.large']);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual(
      Array(2).fill('NodePool web would exceed its hourly cost limit: $0.58 of $0.60 used'),
    );
  });
});

describe('cluster limits in plan (--limits FILE)', () => {
  it('counts every pool together against a nodes limit', async () => {
    // Act
    const plan = await planOf('limits-two-pools', ['--limits', limitsFile('cluster-nodes')]);

    // Assess
    expect(plan.nodeClaims).toHaveLength(4);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual(
      Array(2).fill('The cluster would exceed its nodes limit: 4 of 4 used'),
    );
  });

  it('applies the cost limit where it binds before the cpu limit', async () => {
    // Act
    const plan = await planOf('limits-two-pools', ['--limits', limitsFile('cluster-cost-and-cpu')]);

    // Assess
    expect(plan.nodeClaims).toHaveLength(3);
    expect(plan.summary.pricePerHour).toBeLessThanOrEqual(0.3);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual(
      Array(3).fill('The cluster would exceed its hourly cost limit: $0.29 of $0.30 used'),
    );
  });

  it('plans as before without a limits file', async () => {
    // Act
    const plan = await planOf('limits-two-pools');

    // Assess
    expect(plan.nodeClaims).toHaveLength(6);
  });

  it.each([
    {
      name: 'naming the file, line and field of a misspelt limit',
      limits: 'invalid/cluster-limits-unknown-key',
      says: [
        'cluster-limits-unknown-key.yaml:9: spec.limits[hourly-cost]',
        'unknown limit "hourly-cost"',
      ],
    },
    {
      name: 'for a limits file that is not one ClusterLimits document',
      limits: 'limits-two-pools',
      says: ['a limits file holds one ClusterLimits'],
    },
  ])('exits 2 $name', async ({ limits, says }) => {
    // Act
    const run = await runCli([
      'plan',
      '-f',
      fixture('limits-two-pools'),
      '--limits',
      fixture(limits),
    ]);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    for (const words of says) expect(run.stderr).toContain(words);
  });
});
