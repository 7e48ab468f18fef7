/**
 * `nodesmith simulate` through the built binary, as users run it: the JSON summary's contract
 * (DESIGN §5), the timeline a Karpenter user recognises, the report file, and bad options.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

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
];

function reportPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'simulate-')), 'report.html');
}

describe('nodesmith simulate', () => {
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
    const args = ['simulate', '--pods', '40', '--seed', '5'];
    const first = await runCli([...args, '--report', reportPath()]);
    const second = await runCli([...args, '--report', reportPath()]);
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
      'invariants: 6 of 6 held',
    ]) {
      expect(first.stdout).toContain(line);
    }
    const withoutPath = (text: string) => text.replace(/report: .*/, '');
    expect(withoutPath(second.stdout)).toBe(withoutPath(first.stdout));
  });

  it('re-plans the pods of failed launches in the same pass when capacity runs out', async () => {
    const result = await runCli([
      'simulate',
      '--scenario',
      'capacity-errors',
      '--pods',
      '60',
      '-o',
      'json',
      '--report',
      reportPath(),
    ]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.replans).toBeGreaterThan(0);
    expect(summary.pods.pending).toBe(0);
  });

  it.each([
    [['--scenario', 'storm'], '--scenario must be one of burst, capacity-errors, got "storm"'],
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
