/**
 * `nodesmith simulate -f` on a user's own files, run in the test's process: it launches what
 * `plan` chooses, says why pods wait as `plan` does, counts the dump's running nodes, adopts and
 * consolidates them within budgets, and expands workloads; a file `plan` would refuse, and a bad
 * `--limits` file, are refused by the built binary before anything runs.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { aNodePoolDocument, SHOP_NODE_CLASS, yamlOf } from '../support/karpenter-documents.ts';
import { reportPath, simulate } from '../support/simulate-in-process.ts';

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
