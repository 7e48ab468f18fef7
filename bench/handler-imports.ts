/**
 * The cold-start budget of docs/design.md §7.1: each function's bundle, built with the options the
 * stack's NodejsFunction uses (lib/nodesmith-function.ts: ESM, minified, names kept, node22, the
 * `require` shim), its size, and the time a fresh Node.js process takes to import it — the part
 * of a cold start the code controls. Each import runs in its own process; the median of 5.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { median } from './median.ts';

const REQUIRE_SHIM =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

const HANDLERS = ['controller', 'interruption', 'audit-relay', 'api'] as const;

/** What the composition roots read at import, as the stack sets it. */
const ENVIRONMENT = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'bench',
  CLUSTER_NAME: 'bench',
  STATE_TABLE: 'bench-state',
  CLAIMS_TABLE: 'bench-claims',
  WORK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111122223333/bench-work',
  EVENT_BUS_NAME: 'bench-decisions',
  AUDIT_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:bench-AbC123',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

const RUNNER = `const started = performance.now();
await import(process.argv[2]);
process.stdout.write(String(performance.now() - started));
`;

async function bundle(handler: string, dir: string): Promise<string> {
  const outfile = join(dir, handler, 'index.mjs');
  await build({
    entryPoints: [`./functions/handlers/${handler}/index.ts`],
    outfile,
    absWorkingDir: process.cwd(),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    keepNames: true,
    mainFields: ['module', 'main'],
    banner: { js: REQUIRE_SHIM },
    logLevel: 'error',
  });
  return outfile;
}

function importMs(runner: string, outfile: string): number {
  const result = spawnSync(process.execPath, [runner, outfile], {
    env: { PATH: process.env.PATH, ...ENVIRONMENT },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`importing ${outfile}: ${result.stderr}`);
  return Number(result.stdout);
}

export async function benchHandlerImports(runs = 5): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-bundles-'));
  const runner = join(dir, 'runner.mjs');
  writeFileSync(runner, RUNNER);
  console.log(`\nfunction bundles: size and import time in a fresh process (median of ${runs})`);
  console.log('| function | bundle | import | budget |');
  console.log('|---|---:|---:|---|');
  for (const handler of HANDLERS) {
    const outfile = await bundle(handler, dir);
    const ms = median(Array.from({ length: runs }, () => importMs(runner, outfile)));
    const kib = Math.round(statSync(outfile).size / 1024);
    const verdict = ms <= 400 ? 'met' : 'over';
    console.log(`| ${handler} | ${kib} KiB | ${Math.round(ms)} ms | ≤ 400 ms, ${verdict} |`);
  }
}
