// Bundles the CLI into dist/ so `npx nodesmith` starts fast (no TypeScript compile at run time).
// Runs as the package's `prepare` script, so `npm ci` leaves a working command behind.
// `--bench` also bundles the benchmark, so it measures the same code users run.
import { build } from 'esbuild';

const targets = [{ entry: 'bin/nodesmith.ts', out: 'dist/nodesmith.mjs' }];
if (process.argv.includes('--bench'))
  targets.push({ entry: 'bench/run.ts', out: 'dist/bench.mjs' });

await Promise.all(
  targets.map(({ entry, out }) =>
    build({
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      sourcemap: 'linked',
      packages: 'external',
      logLevel: 'warning',
    }),
  ),
);
