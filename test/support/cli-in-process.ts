/**
 * Runs the command line in the test's own process: the same `runNodesmith` the bundled binary
 * calls with `process.argv`, with stdout and stderr captured and the exit status returned, so a
 * test that plans or simulates many inputs does not start a node process for each. Runs wait for
 * each other (they share `process.stdout`, `process.exitCode` and `process.env`). Standard
 * input is not given; the tests of the real binary's contract use `runCli` of `./cli.ts`.
 */
import { Console } from 'node:console';
import { fileURLToPath } from 'node:url';
import { runNodesmith } from '../../bin/cli/run-nodesmith.ts';
import type { CliResult } from './cli.ts';

const CLI = fileURLToPath(new URL('../../bin/nodesmith.mjs', import.meta.url));

type Write = typeof process.stdout.write;

/** A `write` that appends to `sink` instead of the stream, as a pipe would take it. */
function capturing(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined;
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(encoding));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (done !== undefined) process.nextTick(done);
    return true;
  }) as Write;
}

/** Sets `key` of `target` for the run; the returned function puts back what was there. */
function replace(target: object, key: string, value: unknown): () => void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true });
  return () => {
    if (own === undefined) Reflect.deleteProperty(target, key);
    else Object.defineProperty(target, key, own);
  };
}

export interface InProcessOptions {
  /** The whole environment of the run, as a child's would be; the process's own when absent. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Makes `env` the process's environment for the run; the returned function puts it back. */
function useEnvironment(env: NodeJS.ProcessEnv): () => void {
  const own = { ...process.env };
  const set = (to: NodeJS.ProcessEnv) => {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, to);
  };
  set(env);
  return () => set(own);
}

async function runCaptured(args: readonly string[], options: InProcessOptions): Promise<CliResult> {
  const { stdout, stderr } = process;
  const exitCode = process.exitCode;
  let out = '';
  let err = '';
  const restore = [
    replace(
      stdout,
      'write',
      capturing((text) => {
        out += text;
      }),
    ),
    replace(
      stderr,
      'write',
      capturing((text) => {
        err += text;
      }),
    ),
    // The binary's stdout is a pipe when a test runs it, and the commands format for that.
    replace(stdout, 'isTTY', undefined),
    // The test runner's console reports to the runner; the binary's writes to its own streams.
    replace(globalThis, 'console', new Console({ stdout, stderr })),
    ...(options.env === undefined ? [] : [useEnvironment(options.env)]),
  ];
  process.exitCode = undefined;
  try {
    const status = await runNodesmith([process.execPath, CLI, ...args]);
    return { status, stdout: out, stderr: err };
  } finally {
    for (const put of restore) put();
    process.exitCode = exitCode;
  }
}

let queue: Promise<unknown> = Promise.resolve();

/** `nodesmith <args>` in this process: its exit status, stdout and stderr. */
export function runCliInProcess(
  args: readonly string[],
  options: InProcessOptions = {},
): Promise<CliResult> {
  const run = queue.then(() => runCaptured(args, options));
  queue = run.catch(() => undefined);
  return run;
}
