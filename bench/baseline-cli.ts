/**
 * The command line as built from an earlier commit, for paired measurements: the commit's tree
 * (`git archive`, so the repository's worktrees are left alone) in a temporary directory, this
 * checkout's node_modules linked in, and the commit's own scripts/build-cli.mjs run there with
 * the current esbuild. The dependencies the planning path uses are the same versions then and now.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BaselineCli {
  /** The commit's bin/nodesmith.mjs, ready to run. */
  readonly cli: string;
  readonly commit: string;
  readonly remove: () => void;
}

export function buildBaselineCli(commit: string): BaselineCli {
  const full = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'nodesmith-baseline-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', full], {
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: dir, stdio: 'inherit' });
    const cli = join(dir, 'bin', 'nodesmith.mjs');
    if (!existsSync(cli)) throw new Error(`${commit} has no bin/nodesmith.mjs`);
    return { cli, commit: full.slice(0, 7), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
