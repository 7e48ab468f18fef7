/**
 * `nodesmith disruption`: the decisions and the reasons every other managed node stays
 * (docs/design.md §6.3), for a kubectl dump with PodDisruptionBudgets, through the command run in
 * the test's process; the table for people and bad input refused with one line naming the file,
 * line or option, through the built binary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DisruptionReport } from '../../functions/use-cases/disruption/disruption-report.ts';
import { runCli } from '../support/cli.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/underused.yaml', import.meta.url));
const NOW = '2026-10-06T10:00:00Z';
/** Outside the business-hours budget that holds drift off. */
const EVENING = '2026-10-06T18:00:00Z';

async function disruption(...args: string[]): Promise<DisruptionReport> {
  const result = await runCliInProcess(['disruption', ...args, '-o', 'json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as DisruptionReport;
}

function writeDump(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-disruption-')), 'cluster.yaml');
  writeFileSync(file, text);
  return file;
}

describe('nodesmith disruption', () => {
  it('decides in Karpenter order and explains every other node of the dump', async () => {
    const report = await disruption('-f', EXAMPLE, '--now', NOW);
    expect(report.decisions.map((d) => d.method)).toEqual([
      'expiration',
      'emptiness',
      'consolidation-multi',
    ]);
    const [expired, empty, multi] = report.decisions;
    expect(expired?.nodes).toEqual(['ip-10-0-1-15.ec2.internal']);
    expect(empty?.nodes).toEqual(['ip-10-0-1-12.ec2.internal']);
    expect(multi?.replacement).toMatchObject({ capacityType: 'on-demand' });
    expect(multi?.savingsPerHour).toBeGreaterThan(0);
    expect(Object.fromEntries(report.staying.map((s) => [s.node, s.code]))).toEqual({
      'ip-10-0-1-11.ec2.internal': 'Budget',
      'ip-10-0-1-13.ec2.internal': 'PodsBlock',
      'ip-10-0-1-14.ec2.internal': 'PodsBlock',
      'ip-10-0-1-17.ec2.internal': 'ConsolidationPolicy',
      'ip-10-0-1-18.ec2.internal': 'NotInitialized',
    });
    expect(report.staying.find((s) => s.node === 'ip-10-0-1-14.ec2.internal')?.reason).toBe(
      'PodDisruptionBudget shop/orders-db allows no disruption now (pod shop/orders-db-0)',
    );
  });

  it('counts no saving for an expired node, whose pods need capacity elsewhere', async () => {
    // Act
    const report = await disruption('-f', EXAMPLE, '--now', NOW);
    // Assert
    const expired = report.decisions.find((d) => d.method === 'expiration');
    expect(expired?.savingsPerHour).toBe(0);
    expect(expired?.message).toBe(
      'expired: 843h old, past the expireAfter of 720h; its pods fit on other nodes',
    );
  });

  describe('a PodDisruptionBudget without status, as Kubernetes publishes it', () => {
    const ZOOKEEPER = 'test/fixtures/disruption/zookeeper-on-underused.yaml';
    const POLICY = 'test/fixtures/public/website/policy';
    const zkNode = (report: DisruptionReport) =>
      report.staying.find((s) => s.node === 'ip-10-0-1-10.ec2.internal')?.reason;

    it.each([
      ['maxUnavailable: 1', 'maxunavailable'],
      ['minAvailable: 2', 'minavailable'],
    ])('allows one disruption with %s over three Ready pods', async (_rule, variant) => {
      // Act
      const budget = `${POLICY}/zookeeper-pod-disruption-budget-${variant}.yaml`;
      const report = await disruption('-f', EXAMPLE, '-f', ZOOKEEPER, '-f', budget, '--now', NOW);
      // Assert
      expect(zkNode(report)).not.toContain('zk-pdb');
      expect(zkNode(report)).toMatch(/^over the Underutilized budget/);
    });

    it('allows none with minAvailable: 2 over two Ready pods', async () => {
      // Arrange
      const twoPods = readFileSync(ZOOKEEPER, 'utf8').split(/^---$/m).slice(0, 2).join('---');
      // Act
      const budget = `${POLICY}/zookeeper-pod-disruption-budget-minavailable.yaml`;
      const report = await disruption(
        '-f',
        EXAMPLE,
        '-f',
        writeDump(twoPods),
        '-f',
        budget,
        '--now',
        NOW,
      );
      // Assert
      expect(zkNode(report)).toBe(
        'PodDisruptionBudget default/zk-pdb allows no disruption now (pod default/zk-0)',
      );
    });
  });

  it('lists every managed node exactly once', async () => {
    const report = await disruption('-f', EXAMPLE, '--now', NOW);
    const listed = [
      ...report.decisions.flatMap((d) => d.nodes),
      ...report.staying.map((s) => s.node),
    ];
    expect(listed).toHaveLength(9);
    expect(new Set(listed).size).toBe(9);
  });

  it('holds drift off inside the business-hours budget and lets it through outside it', async () => {
    const evening = await disruption('-f', EXAMPLE, '--now', EVENING);
    const drift = evening.decisions.find((d) => d.method === 'drift');
    expect(drift?.nodes).toEqual(['ip-10-0-1-16.ec2.internal']);
  });

  it('judges drift by the AMIs a dump’s EC2NodeClass status selects, not by its subnets or security groups, which no NodeClaim records', async () => {
    // Prepare: the class now selects other subnets and security groups, then another AMI too
    const dump = readFileSync(EXAMPLE, 'utf8');
    const otherNetwork = dump
      .replace(/subnet-0(a1|b2|c3)/g, 'subnet-0new$1')
      .replace(
        '      subnets:\n',
        '      securityGroups:\n        - id: sg-0new\n          name: nodes\n      subnets:\n',
      );
    const otherImage = otherNetwork.replace(
      '        - id: ami-0e5f3c2a9b1d47a86',
      '        - id: ami-0f00000000000000d',
    );

    // Act
    const asDumped = await disruption('-f', EXAMPLE, '--now', EVENING);
    const network = await disruption('-f', writeDump(otherNetwork), '--now', EVENING);
    const image = await disruption('-f', writeDump(otherImage), '--now', EVENING);

    // Assess
    expect(network).toEqual(asDumped);
    const drifts = image.decisions.filter((d) => d.method === 'drift');
    expect(drifts.map((d) => d.message)).toEqual([expect.stringMatching(/^drifted \(AMIDrift: /)]);
  });

  it('prints a table for people', async () => {
    const result = await runCli(['disruption', '-f', EXAMPLE, '--now', NOW]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^METHOD +NODES +REPLACEMENT +SAVES\/H +BUDGET +WHY$/m);
    expect(result.stdout).toMatch(/^STAYING +WHY$/m);
    expect(result.stdout).toMatch(
      /3 decisions: 4 nodes to go, saving \$\d+\.\d{4} per hour; 5 nodes stay/,
    );
  });

  it('refuses a bad --now, a missing file and a bad budget with one line and status 2', async () => {
    const badNow = await runCli(['disruption', '-f', EXAMPLE, '--now', 'tuesday']);
    expect(badNow.status).toBe(2);
    expect(badNow.stderr).toBe(
      'nodesmith: --now must be an RFC 3339 time such as 2026-06-01T12:00:00Z, got "tuesday"\n',
    );
    const noFile = await runCli(['disruption']);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toMatch(/give at least one file with -f FILE/);
    const file = writeDump(
      [
        'apiVersion: policy/v1',
        'kind: PodDisruptionBudget',
        'metadata:',
        '  name: web',
        'spec:',
        '  minAvailable: true',
        '',
      ].join('\n'),
    );
    const badBudget = await runCli(['disruption', '-f', file]);
    expect(badBudget.status).toBe(2);
    expect(badBudget.stderr).toMatch(new RegExp(`${file}:6`));
    expect(badBudget.stderr).toMatch(/spec\.minAvailable/);
  });

  it('refuses the removed policy/v1beta1 budgets by name', async () => {
    const file = writeDump(
      'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec: {}\n',
    );
    const result = await runCli(['disruption', '-f', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /PodDisruptionBudget policy\/v1beta1 is not supported; write it as policy\/v1/,
    );
  });
});
