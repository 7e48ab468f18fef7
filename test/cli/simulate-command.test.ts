/**
 * `nodesmith simulate` as users run it: the JSON summary's contract (docs/design.md §6.4) and bad
 * options through the built binary; the timeline a Karpenter user recognises and the report file
 * through the same command run in the test's process.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { aNodePoolDocument, SHOP_NODE_CLASS, yamlOf } from '../support/karpenter-documents.ts';

const SUMMARY_KEYS = [
  'scenario',
  'pods',
  'nodes',
  'costPerHour',
  'decisionLatencyMs',
  'launches',
  'replans',
  'duplicateLaunches',
  'leakedInstances',
  'unschedulable',
];

function reportPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'simulate-')), 'report.html');
}

/** `nodesmith simulate <args>` in the test's process, writing its report to a fresh file. */
function simulate(...args: string[]) {
  return runCliInProcess(['simulate', ...args, '--report', reportPath()]);
}

describe('nodesmith simulate', { timeout: 180_000 }, () => {
  it('prints exactly one JSON summary object with the contract fields', async () => {
    const report = reportPath();
    const result = await runCli(['simulate', '--pods', '80', '-o', 'json', '--report', report]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(Object.keys(summary)).toEqual(SUMMARY_KEYS);
    expect(summary.scenario).toBe('burst');
    expect(summary.pods).toEqual({ total: 80, running: 80, pending: 0 });
    expect(summary.nodes.launched).toBe(summary.launches);
    expect(summary.nodes.running).toBeGreaterThan(0);
    expect(summary.costPerHour).toBeGreaterThan(0);
    expect(summary.duplicateLaunches).toBe(0);
    expect(summary.leakedInstances).toBe(0);
    expect(summary.decisionLatencyMs.p50).toBeLessThanOrEqual(summary.decisionLatencyMs.p99);
    expect(readFileSync(report, 'utf8')).toContain('<!doctype html>');
  });

  it('shows the timeline and the summary, and the same seed gives the same run', async () => {
    const args = ['--pods', '40', '--seed', '5'];
    const first = await simulate(...args);
    const second = await simulate(...args);
    expect(first.status).toBe(0);
    for (const line of [
      'kube-scheduler marked 16 pods Unschedulable',
      'found 16 provisionable pods',
      'new node claims',
      'launched general-',
      'registered general-',
      'initialized general-',
      'kube-scheduler bound',
      'burst: 40/40 pods running',
      'invariants: 11 of 11 held',
    ]) {
      expect(first.stdout).toContain(line);
    }
    const withoutPath = (text: string) => text.replace(/report: .*/, '');
    expect(withoutPath(second.stdout)).toBe(withoutPath(first.stdout));
  });

  it('runs the same with its state on DynamoDB Local', async () => {
    const args = ['--pods', '40', '--seed', '2', '-o', 'json'];
    const inMemory = await simulate(...args);
    const onDynamoDb = await simulate(...args, '--dynamodb-local');
    expect(onDynamoDb.stderr).toBe('');
    expect(onDynamoDb.status).toBe(0);
    expect(JSON.parse(onDynamoDb.stdout)).toEqual(JSON.parse(inMemory.stdout));
  });

  it('re-plans the pods of failed launches in the same pass when capacity runs out', async () => {
    const result = await simulate('--scenario', 'capacity-errors', '--pods', '60', '-o', 'json');
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.replans).toBeGreaterThan(0);
    expect(summary.pods.pending).toBe(0);
  });

  it('takes over a Karpenter cluster with a node group: launches for the burst, and terminates, drains or cordons none of the nodes it did not launch', async () => {
    // Act
    const report = reportPath();
    const args = ['simulate', '--scenario', 'takeover', '--pods', '40', '--report', report];
    const result = await runCliInProcess(args);
    // Assess
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('takeover: 47/47 pods running');
    expect(result.stdout).toContain('invariants: 11 of 11 held');
    expect(result.stdout).not.toMatch(/(disrupting|draining|terminat\w+) \S+ as ip-10-[12]-0-/);
    expect(result.stdout).not.toContain('adopted');
    expect(readFileSync(report, 'utf8')).toContain(
      'no instance Nodesmith did not launch terminated without a drain</b> — 5 instances it did not launch (0 adopted); 0 of them terminated',
    );
  });

  it("with --adopt-karpenter-nodes adopts Karpenter's nodes and consolidates one through a drain, never touching the node group's", async () => {
    // Act
    const report = reportPath();
    const args = ['simulate', '--scenario', 'takeover', '--pods', '40', '--adopt-karpenter-nodes'];
    const result = await runCliInProcess([...args, '--report', report]);
    // Assess
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('takeover: 47/47 pods running');
    expect(result.stdout).toContain('invariants: 11 of 11 held');
    for (const i of [1, 2, 3]) {
      expect(result.stdout).toContain(
        `adopted from karpenter general-k${i}x7q as ip-10-1-0-${i}.ec2.internal`,
      );
    }
    expect(result.stdout).toMatch(
      /draining general-k3x7q as ip-10-1-0-3\.ec2\.internal\n.*drain general-k3x7q as ip-10-1-0-3\.ec2\.internal: evicted 3, refused 0/,
    );
    expect(result.stdout).toContain('terminated general-k3x7q');
    expect(result.stdout).not.toMatch(/ip-10-2-0-/);
    expect(readFileSync(report, 'utf8')).toContain(
      'no instance Nodesmith did not launch terminated without a drain</b> — 5 instances it did not launch (3 adopted); 1 of them terminated, each after a drain',
    );
  });

  it.each([
    [
      ['--scenario', 'storm'],
      '--scenario must be one of burst, capacity-errors, spot-interruption, consolidation, drift, limits, takeover, got "storm"',
    ],
    [['--pods', '0'], '--pods must be a whole number from 1 to 5000, got "0"'],
    [['--seed', 'x'], '--seed must be a whole number from 0 to 2147483647, got "x"'],
    [['-o', 'yaml'], '--output must be text or json, got "yaml"'],
  ])('refuses %j with one line and exit status 2, writing no report', async (args, message) => {
    const report = reportPath();
    const result = await runCli(['simulate', ...args, '--report', report]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`nodesmith: ${message}\n`);
    expect(existsSync(report)).toBe(false);
  });
});

describe('nodesmith simulate -f', { timeout: 180_000 }, () => {
  it('launches for a dump what plan chooses for it, and reports what plan cannot place', async () => {
    const file = 'examples/web-shop.yaml';
    const plan = JSON.parse((await runCliInProcess(['plan', '-f', file, '-o', 'json'])).stdout);
    const result = await simulate('-f', file, '-o', 'json');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.scenario).toBe('files');
    expect(summary.launches).toBe(plan.summary.newNodeClaims);
    // Its four running nodes (m7g.xlarge, c7i.xlarge, r7g.xlarge, m6i.large) at list prices.
    const existing = 0.1632 + 0.1785 + 0.2142 + 0.096;
    expect(summary.nodes.running).toBe(plan.summary.newNodeClaims + 4);
    expect(summary.costPerHour).toBeCloseTo(plan.summary.pricePerHour + existing, 4);
    expect(summary.pods.pending).toBe(plan.unschedulable.length);
    expect(summary.unschedulable).toEqual([
      { reason: plan.unschedulable[0].reason, pods: ['reporting/nightly-export-29299320-6xk2d'] },
    ]);
  });

  it('says why the pods left pending wait, one row per reason as plan shows them', async () => {
    // Act
    const result = await simulate('-f', 'examples/web-shop.yaml');
    // Assert
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('invariants: 11 of 11 held');
    expect(result.stdout).toMatch(
      /\nUNSCHEDULABLE +REASON\nreporting\/nightly-export-29299320-6xk2d +nodepool "gpu": did not tolerate nvidia\.com\/gpu=true:NoSchedule; nodepool "default": no instance type has 4096Gi memory\n/,
    );
  });

  it("counts and prices a dump's running nodes", async () => {
    // Act
    const result = await simulate('-f', 'examples/underused.yaml', '-o', 'json');
    // Assert
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    // Its nine nodes run from the start: those still running, less those launched, plus those gone.
    const { launched, terminated, running } = summary.nodes;
    expect(running - launched + terminated).toBe(9);
    expect(summary.pods.pending).toBe(0);
  });

  it("adopts a dump's nodes of its NodePools and consolidates them through a drain, within its budgets", async () => {
    // Arrange: the dump's nine nodes at list prices, as the run starts from them.
    const startingCostPerHour = 1.898;
    // Act
    const result = await simulate('-f', 'examples/underused.yaml');
    // Assert
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /\n\d+:\d\d {2}adopted from karpenter default-a as ip-10-0-1-10\.ec2\.internal\n/,
    );
    const disrupted = [...result.stdout.matchAll(/ {2}disrupting (\S+) as /g)].map((m) => m[1]);
    expect(disrupted.length).toBeGreaterThan(0);
    for (const claim of disrupted) {
      expect(result.stdout).toMatch(new RegExp(`drain ${claim} as \\S+: evicted [1-9]`));
      expect(result.stdout).toMatch(new RegExp(`terminated ${claim}\\n`));
    }
    expect(result.stdout).toContain('invariants: 11 of 11 held');
    const final = /files: (\d+)\/(\d+) pods running on \d+ nodes, \$([\d.]+)\/h/.exec(
      result.stdout,
    );
    expect(final?.[1]).toBe(final?.[2]);
    expect(Number(final?.[3])).toBeLessThan(startingCostPerHour);
    // The dump's PodDisruptionBudgets hold: orders-db-0 (minAvailable 1, on default-e, and no
    // controller in the dump would recreate it) is never evicted, so no pod is lost.
    expect(result.stdout).not.toMatch(/drain default-e as /);
    expect(final?.[2]).toBe('14');
  });

  it('plans its first pass exactly as plan does, before kube-scheduler has bound anything', async () => {
    const file = 'examples/scale-from-zero.yaml';
    const plan = JSON.parse((await runCliInProcess(['plan', '-f', file, '-o', 'json'])).stdout);
    const result = await simulate('-f', file);
    expect(result.status).toBe(0);
    const first = /computed (\d+) new node claims/.exec(result.stdout);
    expect(Number(first?.[1])).toBe(plan.summary.newNodeClaims);
    const launched = [
      ...result.stdout.matchAll(/0:01 {2}launched \S+ \(([^,]+), ([^,]+), ([^,]+),/g),
    ]
      .map((m) => `${m[1]}/${m[2]}/${m[3]}`)
      .sort();
    const planned = plan.nodeClaims
      .map(
        (c: { instanceType: string; zone: string; capacityType: string }) =>
          `${c.instanceType}/${c.zone}/${c.capacityType}`,
      )
      .sort();
    expect(launched).toEqual(planned);
  });

  it('turns Deployments, StatefulSets and Jobs into their pods', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workloads-'));
    const file = join(dir, 'workloads.yaml');
    writeFileSync(
      file,
      `${SHOP_NODE_CLASS}---
${yamlOf(aNodePoolDocument({ requirements: { 'karpenter.sh/capacity-type': ['spot', 'on-demand'] } }))}---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop }
spec:
  replicas: 5
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: web:1, resources: { requests: { cpu: 500m, memory: 512Mi } } }] }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: shop }
spec:
  replicas: 2
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db, image: db:1, resources: { requests: { cpu: "1", memory: 2Gi } } }] }
  volumeClaimTemplates:
    - metadata: { name: data }
      spec: { storageClassName: gp3, accessModes: [ReadWriteOnce], resources: { requests: { storage: 10Gi } } }
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: { name: gp3 }
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
parameters: { type: gp3 }
---
apiVersion: batch/v1
kind: Job
metadata: { name: report, namespace: batch }
spec:
  parallelism: 3
  completions: 10
  template:
    spec: { restartPolicy: Never, containers: [{ name: report, image: report:1, resources: { requests: { cpu: "2", memory: 1Gi } } }] }
`,
    );
    const result = await simulate('-f', file, '-o', 'json');
    expect(result.stderr).toBe('');
    const summary = JSON.parse(result.stdout);
    expect(summary.pods).toEqual({ total: 10, running: 10, pending: 0 });
  });

  it('refuses a file plan would refuse, naming file, line and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-'));
    const file = join(dir, 'pool.yaml');
    writeFileSync(
      file,
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }\n      requirements: []\n  limits:\n    cpu: lots\n',
    );
    const result = await runCli(['simulate', '-f', file, '--report', reportPath()]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^nodesmith: ${file}:11: spec\\.limits\\.cpu`));
  });

  it('runs under the cluster limits of --limits FILE, and refuses a bad one before running', async () => {
    const limits = 'test/fixtures/conformance/limits/cluster-nodes.yaml';
    const run = await simulate('--pods', '60', '--limits', limits, '-o', 'json');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.nodes.running).toBe(4);
    expect(summary.pods.pending).toBeGreaterThan(0);
    const report = reportPath();
    const bad = await runCli([
      'simulate',
      '--limits',
      'test/fixtures/conformance/invalid/cluster-limits-unknown-key.yaml',
      '--report',
      report,
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('cluster-limits-unknown-key.yaml:9: spec.limits[hourly-cost]');
    expect(existsSync(report)).toBe(false);
  });
});
