/**
 * `nodesmith simulate` of its scenarios as users run it: the JSON summary's contract
 * (docs/design.md §6.4) and bad options through the built binary; the timeline a Karpenter user
 * recognises, the report file, state on DynamoDB Local and taking over a cluster through the same
 * command run in the test's process. Simulations of a user's own files: simulate-files.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';
import { reportPath, simulate } from '../support/simulate-in-process.ts';

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
  'invariants',
  'wakes',
];

describe('nodesmith simulate', { timeout: 180_000 }, () => {
  it('writes nothing to stderr when a function has nothing to count', async () => {
    // Act: some invocations count nothing, and Powertools warns of it.
    const report = reportPath();
    const args = ['simulate', '--scenario', 'spot-interruption', '--pods', '10', '-o', 'json'];
    const result = await runCli([...args, '--report', report]);
    // Assess
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).scenario).toBe('spot-interruption');
  });

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
    expect(summary.invariants).toHaveLength(11);
    expect(summary.invariants.filter((i: { held: boolean }) => !i.held)).toEqual([]);
    expect(Object.keys(summary.invariants[0])).toEqual(['name', 'held', 'detail']);
    expect(summary.decisionLatencyMs.p50).toBeLessThanOrEqual(summary.decisionLatencyMs.p99);
    expect(Object.keys(summary.wakes)).toEqual(['admission', 'audit', 'tick', 'self']);
    // The admission webhook is the default wake path.
    expect(summary.wakes.admission).toBeGreaterThan(0);
    expect(summary.wakes.audit).toBe(0);
    expect(readFileSync(report, 'utf8')).toContain('<!doctype html>');
  });

  it.each([
    ['audit', { admission: 0 }, 'audit'],
    ['tick', { admission: 0, audit: 0 }, 'tick'],
  ] as const)('--wake %s wakes the controller only that way', async (wake, none, source) => {
    // Prepare
    const report = reportPath();

    // Act
    const result = await runCli([
      'simulate',
      '--pods',
      '20',
      '--wake',
      wake,
      '-o',
      'json',
      '--report',
      report,
    ]);

    // Assess
    expect(result.status).toBe(0);
    const { wakes, pods } = JSON.parse(result.stdout);
    expect(pods).toEqual({ total: 20, running: 20, pending: 0 });
    expect(wakes).toMatchObject(none);
    expect(wakes[source]).toBeGreaterThan(0);
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
      '--scenario must be one of burst, capacity-errors, spot-interruption, consolidation, drift, subnet-drift, limits, takeover, static-pools, reservations, got "storm"',
    ],
    [['--pods', '0'], '--pods must be a whole number from 1 to 5000, got "0"'],
    [['--seed', 'x'], '--seed must be a whole number from 0 to 2147483647, got "x"'],
    [['-o', 'yaml'], '--output must be text or json, got "yaml"'],
    [['--wake', 'poll'], '--wake must be one of admission, audit, tick, got "poll"'],
  ])('refuses %j with one line and exit status 2, writing no report', async (args, message) => {
    const report = reportPath();
    const result = await runCli(['simulate', ...args, '--report', report]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`nodesmith: ${message}\n`);
    expect(existsSync(report)).toBe(false);
  });
});
