/**
 * The cold-start budget of docs/design.md §7.1: each function's bundle, built with the options the
 * stack's NodejsFunction uses (lib/function-bundling.ts: ESM, minified, names kept, node22, the
 * `require` shim, the aliases), its size, and the time a fresh Node.js process takes to import
 * it — the part of a cold start the code controls. Each import runs in its own process; the
 * median of 5.
 *
 * What a function loads with `import()` on first use stays in the same bundle, compiled when it
 * is first needed. The last column imports the bundle with every such module loaded at once:
 * about what an invocation that needs all of them pays, import and loading together.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { FUNCTION_BUNDLING } from '../lib/function-bundling.ts';
import { median } from './median.ts';

/** Each handler folder's bundle, and the functions of the stack built from it (lib/). */
const BUNDLES = [
  { folder: 'controller', functions: 'Controller' },
  { folder: 'interruption', functions: 'Interruption' },
  { folder: 'audit-relay', functions: 'WakeWebhook, AuditWebhook, AuditLogs' },
  { folder: 'api', functions: 'Api' },
] as const;

const BUDGET_MS = 200;

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
  WAKE_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:wake-AbC123',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

const RUNNER = `const started = performance.now();
await import(process.argv[2]);
process.stdout.write(String(performance.now() - started));
`;

const OPTIONS: BuildOptions = {
  ...FUNCTION_BUNDLING,
  mainFields: [...FUNCTION_BUNDLING.mainFields],
  banner: { js: FUNCTION_BUNDLING.banner },
  absWorkingDir: process.cwd(),
  bundle: true,
  platform: 'node',
  logLevel: 'error',
};

interface Bundle {
  readonly outfile: string;
  readonly metafile: Metafile;
}

async function bundle(folder: string, dir: string): Promise<Bundle> {
  const outfile = join(dir, folder, 'index.mjs');
  const { metafile } = await build({
    ...OPTIONS,
    entryPoints: [`./functions/handlers/${folder}/index.ts`],
    outfile,
    metafile: true,
  });
  return { outfile, metafile };
}

/** The project's modules the bundle reaches only through `import()`. */
function deferredModules(metafile: Metafile): string[] {
  const imported = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const dynamic = imported.filter((i) => i.kind === 'dynamic-import' && !i.external);
  return [...new Set(dynamic.map((i) => i.path))].filter((path) => path.startsWith('functions/'));
}

/** The same bundle, every deferred module loaded with the import. */
async function bundleAllAtOnce(folder: string, deferred: readonly string[], dir: string) {
  const outfile = join(dir, folder, 'all-at-once.mjs');
  const imports = [`./functions/handlers/${folder}/index.ts`, ...deferred.map((p) => `./${p}`)];
  await build({
    ...OPTIONS,
    stdin: {
      contents: imports.map((path) => `import '${path}';`).join('\n'),
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    outfile,
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
  const medianMs = (outfile: string) =>
    median(Array.from({ length: runs }, () => importMs(runner, outfile)));
  console.log(`\nfunction bundles: size and import time in a fresh process (median of ${runs})`);
  console.log('| bundle | functions | size | import | budget | with all it defers |');
  console.log('|---|---|---:|---:|---|---:|');
  for (const { folder, functions } of BUNDLES) {
    const { outfile, metafile } = await bundle(folder, dir);
    const ms = medianMs(outfile);
    const deferred = deferredModules(metafile);
    const atOnce =
      deferred.length === 0 ? ms : medianMs(await bundleAllAtOnce(folder, deferred, dir));
    const kib = Math.round(statSync(outfile).size / 1024);
    const verdict = ms <= BUDGET_MS ? 'met' : 'over';
    console.log(
      `| ${folder} | ${functions} | ${kib} KiB | ${Math.round(ms)} ms | ≤ ${BUDGET_MS} ms, ${verdict} | ${Math.round(atOnce)} ms |`,
    );
  }
}
