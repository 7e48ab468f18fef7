/**
 * `npx cdk synth` as an operator runs it before `cdk deploy`: the real CLI, offline (notices,
 * telemetry and the version check off), bundling every function with esbuild. The median of 3.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './median.ts';

function synthMs(): number {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-cdk-'));
  const start = performance.now();
  const result = spawnSync(
    'node_modules/.bin/cdk',
    [
      'synth',
      '--quiet',
      '--no-notices',
      '-o',
      outdir,
      '-c',
      'clusterName=bench',
      '-c',
      'nodeRoleArn=arn:aws:iam::111122223333:role/KarpenterNodeRole-bench',
    ],
    {
      env: {
        ...process.env,
        CDK_DISABLE_VERSION_CHECK: '1',
        CDK_DISABLE_CLI_TELEMETRY: 'true',
        CDK_DEFAULT_ACCOUNT: '111122223333',
        CDK_DEFAULT_REGION: 'us-east-1',
      },
      encoding: 'utf8',
    },
  );
  const ms = performance.now() - start;
  rmSync(outdir, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`cdk synth failed: ${result.stderr}`);
  return ms;
}

export function benchCdkSynth(runs = 3): void {
  const ms = median(Array.from({ length: runs }, synthMs));
  console.log(
    `\ncdk synth, offline, four functions bundled: ${(ms / 1000).toFixed(1)} s (median of ${runs})`,
  );
}
