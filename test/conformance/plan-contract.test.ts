/**
 * The `nodesmith plan` contract (docs/design.md §6.2) that outside suites run against: one JSON
 * object on stdout, every pending pod reported once, exit status 0 for a computed plan and 2 with
 * one line naming file, line and field for unreadable input, the table view, and the zone and
 * region options. These cases run the built binary as those suites do; the other conformance files
 * run the same command in the test's process.
 */
import { describe, expect, it } from 'vitest';
import type { PlanReport } from '../../functions/use-cases/plan/plan-report.ts';
import { fixture, podsPerLabel, reportedPods, runBinary, runCliOnce, ZONE } from './plan-cli.ts';

const MIXED = fixture('contract-mixed-pending-pods');
const MIXED_PENDING = [
  'default/huge',
  'default/medium',
  'default/preempting',
  'default/small',
  'kube-system/aws-node-k9d2x',
];

describe.concurrent('plan output', () => {
  it('writes exactly one JSON object and nothing else to stdout', async () => {
    // Prepare: a small cluster with pods of every kind
    const args = ['plan', '-f', MIXED, '-o', 'json'];

    // Act
    const run = await runCliOnce(args, runBinary);

    // Assess
    const parsed: unknown = JSON.parse(run.stdout);
    expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
    expect(Object.keys(parsed as object).sort()).toEqual([
      'existingNodes',
      'nodeClaims',
      'summary',
      'unschedulable',
    ]);
    expect(run.stdout.trim().startsWith('{')).toBe(true);
    expect(run.stdout.trim().endsWith('}')).toBe(true);
  });

  it('reports every pending pod exactly once and no running pod', async () => {
    // Prepare: pods for an existing node, a new node and nowhere, a DaemonSet and a preempting pod
    const args = ['plan', '-f', MIXED, '-o', 'json'];

    // Act
    const run = await runCliOnce(args, runBinary);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(reportedPods(plan)).toEqual(MIXED_PENDING);
    expect(plan.summary.pendingPods).toBe(MIXED_PENDING.length);
  });

  it('sums the claims in the summary', async () => {
    // Prepare: a small cluster with pods of every kind
    const args = ['plan', '-f', MIXED, '-o', 'json'];

    // Act
    const run = await runCliOnce(args, runBinary);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    const total = plan.nodeClaims.reduce((sum, c) => sum + c.pricePerHour, 0);
    expect(plan.summary.newNodeClaims).toBe(plan.nodeClaims.length);
    expect(plan.summary.pricePerHour).toBeCloseTo(total, 6);
    expect(plan.summary.priceSource).toBe('us-east-1');
  });

  it('exits 0 with an empty stderr when some pods are unschedulable', async () => {
    // Prepare: the mixed cluster has a 64 vCPU pod no allowed type can hold
    const args = ['plan', '-f', MIXED, '-o', 'json'];

    // Act
    const run = await runCliOnce(args, runBinary);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(plan.unschedulable.find((u) => u.pod === 'default/huge')?.reason).toMatch(/cpu/);
  });

  it('gives the same plan for the same snapshot', async () => {
    // Prepare
    const args = ['plan', '-f', fixture('hostname-zonal-and-capacity-type-spread'), '-o', 'json'];

    // Act
    const [first, second] = await Promise.all([runBinary(args), runBinary(args)]);

    // Assess
    expect(first.stdout).not.toBe('');
    expect(second.stdout).toBe(first.stdout);
  });

  it('reads kind: List dumps spread over several files', async () => {
    // Prepare: NodePools in one `kubectl get -o yaml` list, pods in another
    const args = [
      'plan',
      '-f',
      fixture('contract-split-nodepools'),
      '-f',
      fixture('contract-split-pods'),
      '-o',
      'json',
    ];

    // Act
    const run = await runBinary(args);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toEqual(['default/web-1', 'default/web-2', 'default/web-3']);
  });

  it('shows the plan and its hourly cost as a table', async () => {
    // Prepare
    const args = ['plan', '-f', MIXED, '--output', 'table'];

    // Act
    const run = await runBinary(args);

    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('m5.large');
    expect(run.stdout).toContain('default/huge');
    expect(run.stdout).toMatch(/\$0\.0960 per hour/);
  });
});

describe.concurrent('unreadable input', () => {
  it('exits 2 naming file, line and field for a bad quantity', async () => {
    // Prepare: a pod whose cpu request is "two"
    const file = fixture('invalid/bad-quantity');

    // Act
    const run = await runBinary(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${file}:13`);
    expect(run.stderr).toContain('spec.containers[0].resources.requests.cpu');
  });

  it('exits 2 naming file, line and field for an invalid NodePool field', async () => {
    // Prepare: a NodePool requirement with operator "Equals"
    const file = fixture('invalid/bad-nodepool-operator');

    // Act
    const run = await runBinary(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${file}:19`);
    expect(run.stderr).toContain('spec.template.spec.requirements[1].operator');
  });

  it('exits 2 naming a file that does not exist', async () => {
    // Prepare
    const file = fixture('does-not-exist');

    // Act
    const run = await runBinary(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(file);
  });
});

describe.concurrent('zones and region', () => {
  it('launches in the zones given with --zones', async () => {
    // Prepare: four pods with a zonal spread
    const args = ['plan', '-f', fixture('zonal-spread-match-labels'), '-o', 'json'];

    // Act
    const run = await runBinary([...args, '--zones', 'us-east-1d,us-east-1f']);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1d': 2, 'us-east-1f': 2 });
  });

  it('prefers --zones over the EC2NodeClass subnets', async () => {
    // Prepare: subnets in us-east-1a and us-east-1b, pods requiring us-east-1b and us-east-1c
    const args = ['plan', '-f', fixture('zone-outside-node-class-subnets'), '-o', 'json'];

    // Act
    const run = await runBinary([...args, '--zones', 'us-east-1c']);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(podsPerLabel(plan, ZONE)).toEqual({ 'us-east-1c': 1 });
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/zone-b']);
  });

  it('estimates with us-east-1 prices and warns for a region without bundled prices', async () => {
    // Prepare
    const args = ['plan', '-f', fixture('binpack-pods-onto-one-node'), '-o', 'json'];

    // Act
    const run = await runBinary([...args, '--region', 'eu-west-1']);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(run.status).toBe(0);
    expect(plan.summary.priceSource).toBe('us-east-1');
    expect(run.stderr).toMatch(/^warning: .*eu-west-1.*us-east-1/m);
    expect(plan.nodeClaims[0]?.zone).toBe('eu-west-1a');
    expect(plan.nodeClaims[0]?.labels['topology.kubernetes.io/region']).toBe('eu-west-1');
  });

  it('uses a region own bundled prices without a warning', async () => {
    // Prepare
    const args = ['plan', '-f', fixture('binpack-pods-onto-one-node'), '-o', 'json'];

    // Act
    const run = await runBinary([...args, '--region', 'us-gov-west-1']);

    // Assess
    const plan = JSON.parse(run.stdout) as PlanReport;
    expect(run.stderr).toBe('');
    expect(plan.summary.priceSource).toBe('us-gov-west-1');
    expect(plan.nodeClaims[0]?.zone).toBe('us-gov-west-1a');
  });
});
