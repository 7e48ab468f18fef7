/**
 * `nodesmith simulate` in the test's process (cli-in-process.ts), each run writing its HTML
 * report to a file of its own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SimulationSummary } from '../../simulator/run/simulation-report.ts';
import type { CliResult } from './cli.ts';
import { runCliInProcess } from './cli-in-process.ts';

/** A fresh path for a run's report. */
export function reportPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'simulate-')), 'report.html');
}

/** `nodesmith simulate <args>` in the test's process, writing its report to a fresh file. */
export function simulate(...args: string[]): Promise<CliResult> {
  return runCliInProcess(['simulate', ...args, '--report', reportPath()]);
}

/**
 * `nodesmith simulate --deployed --scenario <scenario> <args> -o json`, asserting what every
 * deployed scenario must end with: exit status 0, every invariant held, no pod pending, nothing
 * refused by IAM or the API server. Resolves with the summary for the scenario's own checks.
 */
export async function cleanDeployedRun(
  scenario: string,
  ...args: string[]
): Promise<SimulationSummary> {
  const result = await simulate('--deployed', '--scenario', scenario, ...args, '-o', 'json');
  expect(result.status).toBe(0);
  const summary = JSON.parse(result.stdout) as SimulationSummary;
  expect(summary.pods.pending).toBe(0);
  expect(summary.invariants.filter((i) => !i.held)).toEqual([]);
  expect(summary.aws?.denied).toEqual([]);
  expect(summary.kubernetes?.denied).toEqual([]);
  return summary;
}
