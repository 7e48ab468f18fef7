/**
 * One whole `nodesmith plan -f FILE -o json` process, as a user runs it: wall time from spawn to
 * exit, and the peak RSS the process reports itself at exit (bench/peak-rss.mjs). The plan goes
 * to a file when one is named, else to /dev/null.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PEAK_RSS = fileURLToPath(new URL('../bench/peak-rss.mjs', import.meta.url));

export interface PlanProcessRun {
  readonly seconds: number;
  readonly rssBytes: number;
}

/** Runs `cli` (a bin/nodesmith.mjs) on `file`; throws when the process fails. */
export function runPlanProcess(
  cli: string,
  file: string,
  rssFile: string,
  output = '/dev/null',
): PlanProcessRun {
  const args = ['--import', PEAK_RSS, cli, 'plan', '-f', file, '-o', 'json'];
  const env = { ...process.env, NODESMITH_RSS_FILE: rssFile };
  const stdout = openSync(output, 'w');
  try {
    const start = performance.now();
    const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', stdout, 'inherit'] });
    const seconds = (performance.now() - start) / 1000;
    if (run.status !== 0) throw new Error(`${cli} plan exited ${run.status}`);
    return { seconds, rssBytes: Number(readFileSync(rssFile, 'utf8')) };
  } finally {
    closeSync(stdout);
  }
}
