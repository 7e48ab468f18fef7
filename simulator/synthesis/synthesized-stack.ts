/**
 * The stack as `cdk synth` writes it (the real CLI, offline, the app from cdk.json, real esbuild
 * bundles), kept in a cache directory named by a hash of what the output depends on: lib/,
 * functions/, cdk.json, package-lock.json and the context. A second run with the same inputs
 * reads the kept output instead of synthesizing again.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  type CloudFormationTemplate,
  type FunctionAsset,
  functionAssets,
} from './cloud-assembly.ts';

export interface SynthesisOptions {
  /** The project's root: where cdk.json, lib/ and functions/ are. */
  readonly projectRoot: string;
  /** Where synthesized outputs are kept, one directory per hash. */
  readonly cacheRoot: string;
  /** The `-c key=value` context, as an operator passes it. */
  readonly context: Readonly<Record<string, string>>;
}

export interface SynthesizedStack {
  /** The cloud assembly directory (what `cdk synth -o` wrote). */
  readonly outdir: string;
  readonly stackName: string;
  readonly template: CloudFormationTemplate;
  /** Each bundled function's code directory and handler, by logical id. */
  readonly functions: Readonly<Record<string, FunctionAsset>>;
  /** True when the kept output was read instead of synthesizing. */
  readonly reused: boolean;
}

/** What the synthesized output depends on, besides the context. */
const INPUT_FOLDERS = ['lib', 'functions'];
const INPUT_FILES = ['cdk.json', 'package-lock.json'];

/** Synth needs no credentials and makes no lookups; notices and telemetry stay off. */
export const OFFLINE_SYNTH_ENVIRONMENT: Readonly<Record<string, string>> = {
  AWS_ACCESS_KEY_ID: '',
  AWS_SECRET_ACCESS_KEY: '',
  AWS_SESSION_TOKEN: '',
  AWS_PROFILE: '',
  AWS_CONFIG_FILE: '/nonexistent',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
  AWS_EC2_METADATA_DISABLED: 'true',
  CDK_DISABLE_VERSION_CHECK: '1',
  CDK_DISABLE_CLI_TELEMETRY: 'true',
  CDK_DEFAULT_ACCOUNT: '111122223333',
  CDK_DEFAULT_REGION: 'us-east-1',
};

function filesUnder(root: string, folder: string): string[] {
  const directory = join(root, folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** The hash of every input file's path and content, and of the context in key order. */
export function synthesisHash(projectRoot: string, context: Readonly<Record<string, string>>) {
  const hash = createHash('sha256');
  const files = [...INPUT_FOLDERS.flatMap((f) => filesUnder(projectRoot, f)), ...INPUT_FILES];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(projectRoot, file)));
    hash.update('\0');
  }
  const keys = Object.keys(context).sort();
  hash.update(JSON.stringify(keys.map((key) => [key, context[key]])));
  return hash.digest('hex').slice(0, 32);
}

function runCdkSynth(options: SynthesisOptions, outdir: string): void {
  const flags = Object.entries(options.context).flatMap(([key, value]) => [
    '-c',
    `${key}=${value}`,
  ]);
  const result = spawnSync(
    join(options.projectRoot, 'node_modules', '.bin', 'cdk'),
    ['synth', '--quiet', '--no-notices', '-o', outdir, ...flags],
    {
      cwd: options.projectRoot,
      env: { ...process.env, ...OFFLINE_SYNTH_ENVIRONMENT },
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (result.status !== 0) {
    throw new Error(`cdk synth failed (${result.status ?? result.signal}): ${result.stderr}`);
  }
}

/** How long a run waits for another synthesizing the same inputs before doing it itself. */
const WAIT_FOR_OTHER_MS = 300_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Synthesizes into a directory of its own, then renames it into place, so a run never reads a
 * half-written output. One run at a time synthesizes given inputs (a lock directory beside the
 * output): test files starting together wait for the first instead of each running cdk synth.
 */
function synthesizeInto(options: SynthesisOptions, outdir: string): void {
  const lock = `${outdir}.lock`;
  const waitUntil = Date.now() + WAIT_FOR_OTHER_MS;
  while (!tryLock(lock)) {
    if (existsSync(join(outdir, 'manifest.json'))) return;
    if (Date.now() > waitUntil) rmSync(lock, { recursive: true, force: true });
    sleep(250);
  }
  const building = `${outdir}.building-${process.pid}`;
  try {
    if (existsSync(join(outdir, 'manifest.json'))) return;
    rmSync(building, { recursive: true, force: true });
    runCdkSynth(options, building);
    renameSync(building, outdir);
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** The synthesized stack for these inputs, from the cache when it holds them. */
export function synthesizedStack(options: SynthesisOptions): SynthesizedStack {
  mkdirSync(options.cacheRoot, { recursive: true });
  const outdir = join(options.cacheRoot, synthesisHash(options.projectRoot, options.context));
  const reused = existsSync(join(outdir, 'manifest.json'));
  if (!reused) synthesizeInto(options, outdir);
  return { ...functionAssets(outdir), outdir, reused };
}
