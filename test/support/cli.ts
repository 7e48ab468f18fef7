/**
 * Runs the bundled command line (`bin/nodesmith.mjs`) the way users do: as a child process, so
 * exit status, stdout and stderr are the real ones. Build it first (`npm test` does).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/nodesmith.mjs', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** The whole environment of the child; the parent's when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /** Options for node itself, before the script (`--import …`). */
  readonly nodeArgs?: readonly string[];
  /** The child's working directory, which relative paths start from; the parent's when absent. */
  readonly cwd?: string;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
      env: options.env ?? process.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream, so a character split between two chunks is read whole.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A kubeconfig in `dir` whose current context reads the API server at `url` with a token. */
export function writeKubeconfig(url: string, dir: string): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: fake\n  cluster:\n    server: ${url}\n    insecure-skip-tls-verify: true`,
      'users:',
      '- name: reader\n  user:\n    token: test-token',
      'contexts:',
      '- name: fake\n  context:\n    cluster: fake\n    user: reader',
      'current-context: fake',
      '',
    ].join('\n'),
  );
  return file;
}
