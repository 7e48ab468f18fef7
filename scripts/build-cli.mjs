// Bundles the CLI into dist/ so `npx nodesmith` starts fast (no TypeScript compile at run time).
// Runs as the package's `prepare` script, so `npm ci` leaves a working command behind.
import { build } from 'esbuild';

await build({
  entryPoints: ['bin/nodesmith.ts'],
  outfile: 'dist/nodesmith.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  packages: 'external',
  logLevel: 'warning',
});
