/**
 * The cold-start budget of docs/design.md §7.1: each function's bundle, built as the stack
 * builds it (lib/function-bundling.ts), its size, and the time a fresh Node.js process takes to
 * import it — the part of a cold start the code controls. Each import runs in its own process;
 * the median of 5.
 *
 * A bundle is split: `index.mjs`, what it imports as it starts, and the files of what the
 * function loads with `import()` on first use. The sizes are of all of it and of what the import
 * loads; the last column imports every file of the bundle, about what an invocation that needs
 * all of it pays, import and loading together.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleFunction, FUNCTION_ENTRY, type HandlerFolder } from '../lib/function-bundling.ts';
import { median } from './median.ts';

/** Each handler folder's bundle, and the functions of the stack built from it (lib/). */
const BUNDLES: readonly { folder: HandlerFolder; functions: string }[] = [
  { folder: 'controller', functions: 'Controller' },
  { folder: 'interruption', functions: 'Interruption' },
  { folder: 'audit-relay', functions: 'WakeWebhook, AuditWebhook, AuditLogs' },
  { folder: 'api', functions: 'Api' },
];

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

/** Imports the files named, in order, and writes how long that took. */
const RUNNER = `const started = performance.now();
for (const file of process.argv.slice(2)) await import(file);
process.stdout.write(String(performance.now() - started));
`;

interface BundleFiles {
  /** The entry first, then the rest of the bundle. */
  readonly all: readonly string[];
  readonly kib: number;
  /** The entry and the files it imports statically: what the import loads. */
  readonly atImportKib: number;
}

function filesOf(metafile: Metafile, dir: string): BundleFiles {
  const outputs = metafile.outputs;
  const paths = Object.keys(outputs);
  const entry = paths.find((path) => path.endsWith(`/${FUNCTION_ENTRY}.mjs`));
  if (entry === undefined) throw new Error(`no ${FUNCTION_ENTRY}.mjs in ${dir}`);
  const atImport = new Set([entry]);
  for (const path of atImport) {
    for (const i of outputs[path]?.imports ?? []) {
      if (i.kind === 'import-statement' && !i.external) atImport.add(i.path);
    }
  }
  const kib = (files: Iterable<string>) =>
    Math.round([...files].reduce((sum, path) => sum + (outputs[path]?.bytes ?? 0), 0) / 1024);
  const absolute = (path: string) => join(dir, path.slice(path.lastIndexOf('/') + 1));
  return {
    all: [entry, ...paths.filter((path) => path !== entry)].map(absolute),
    kib: kib(paths),
    atImportKib: kib(atImport),
  };
}

function importMs(runner: string, files: readonly string[]): number {
  const result = spawnSync(process.execPath, [runner, ...files], {
    env: { PATH: process.env.PATH, ...ENVIRONMENT },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`importing ${files[0]}: ${result.stderr}`);
  return Number(result.stdout);
}

export async function benchHandlerImports(runs = 5): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-bundles-'));
  const runner = join(dir, 'runner.mjs');
  writeFileSync(runner, RUNNER);
  const medianMs = (files: readonly string[]) =>
    median(Array.from({ length: runs }, () => importMs(runner, files)));
  console.log(`\nfunction bundles: size and import time in a fresh process (median of ${runs})`);
  console.log('| bundle | functions | size | loaded at import | import | budget | all of it |');
  console.log('|---|---|---:|---:|---:|---|---:|');
  try {
    for (const { folder, functions } of BUNDLES) {
      const outdir = join(dir, folder);
      const files = filesOf(bundleFunction(folder, outdir, process.cwd()), outdir);
      const ms = medianMs(files.all.slice(0, 1));
      const all = medianMs(files.all);
      const verdict = ms <= BUDGET_MS ? 'met' : 'over';
      console.log(
        `| ${folder} | ${functions} | ${files.kib} KiB | ${files.atImportKib} KiB | ${Math.round(ms)} ms | ≤ ${BUDGET_MS} ms, ${verdict} | ${Math.round(all)} ms |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
