// Bundles the CLI into dist/ so `npx nodesmith` starts fast (no TypeScript compile at run time).
// Runs as the package's `prepare` script, so `npm ci` leaves a working command behind.
// `--bench` also bundles the benchmark, so it measures the same code users run.
import { copyFileSync } from 'node:fs';
import { build } from 'esbuild';

const entryPoints = { nodesmith: 'bin/nodesmith.ts' };
if (process.argv.includes('--bench')) entryPoints.bench = 'bench/run.ts';

// Splitting keeps dynamically imported parts (the Kubernetes client behind --kubeconfig) out of
// the start-up path.
await build({
  entryPoints,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  packages: 'external',
  logLevel: 'warning',
});
// `simulate --deployed` starts each function's process from this script, next to the bundle.
copyFileSync('simulator/lambda/bootstrap.mjs', 'dist/bootstrap.mjs');
