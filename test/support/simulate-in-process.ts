/**
 * `nodesmith simulate` in the test's process (cli-in-process.ts), each run writing its HTML
 * report to a file of its own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
